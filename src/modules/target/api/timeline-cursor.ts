import { TimelinePosition } from '../application/ports/target-event-log.js';

/**
 * The opaque cursor of a target's timeline: base64url of `<at µs>.<sort key>`, the position of the
 * last event of the previous page. Opaque so that clients only hand it back.
 */
export function encodeTimelineCursor(position: TimelinePosition): string {
  return Buffer.from(`${position.atMicros}.${position.key}`, 'utf8').toString('base64url');
}

const POSITION =
  /^(-?\d{1,17})\.(e:\d{19}|n:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The position a cursor names, or null when it is not one this service issued. */
export function decodeTimelineCursor(cursor: string): TimelinePosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const atMicros = Number(match[1]);
  return Number.isSafeInteger(atMicros) ? { atMicros, key: match[2] } : null;
}
