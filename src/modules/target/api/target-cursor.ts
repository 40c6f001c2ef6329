import { CreationPosition } from '../../../common/paging/paging.js';

/**
 * The opaque keyset cursor of the target lists: base64url of `<created_at µs>.<id>`. Opaque so that
 * clients only hand it back; the format may change without breaking them.
 */
export function encodeTargetCursor(position: CreationPosition): string {
  return Buffer.from(`${position.createdMicros}.${position.id}`, 'utf8').toString('base64url');
}

const POSITION = /^(-?\d{1,17})\.([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The position a cursor names, or null when it is not one this service issued. */
export function decodeTargetCursor(cursor: string): CreationPosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const createdMicros = Number(match[1]);
  return Number.isSafeInteger(createdMicros) ? { createdMicros, id: match[2] } : null;
}
