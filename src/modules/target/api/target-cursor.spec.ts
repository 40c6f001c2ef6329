import { decodeTargetCursor, encodeTargetCursor } from './target-cursor.js';

describe('target cursor', () => {
  it('decodes what it encodes', () => {
    const position = {
      createdMicros: 1767225600123456,
      id: '0b7c1c8e-2f36-4f39-9d0e-6f9d7c3b2a10',
    };
    const cursor = encodeTargetCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeTargetCursor(cursor)).toEqual(position);
  });

  it.each([
    '',
    'not a cursor',
    'abc',
    Buffer.from('12.not-a-uuid').toString('base64url'),
    Buffer.from('1.5.0b7c1c8e-2f36-4f39-9d0e-6f9d7c3b2a10').toString('base64url'),
    Buffer.from('99999999999999999.0b7c1c8e-2f36-4f39-9d0e-6f9d7c3b2a10').toString('base64url'),
  ])('refuses %j', (cursor) => {
    expect(decodeTargetCursor(cursor)).toBeNull();
  });
});
