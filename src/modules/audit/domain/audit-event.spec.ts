import {
  type AuditEvent,
  canonicalJson,
  chainBreak,
  nextInChain,
  storable,
} from './audit-event.js';

const input = {
  organizationId: 'org-1',
  occurredAt: new Date('2026-03-02T12:00:00.000Z'),
  actor: { kind: 'api_key', id: 'k1', name: 'EHR', role: 'integration' },
  action: 'target.read',
  resourceType: 'target',
  resourceId: 't1',
  outcome: 'allowed' as const,
  changes: { quiet_hours: { before: { start: '08:00', end: '21:00' }, after: null } },
};

function chain(n: number): AuditEvent[] {
  const events: AuditEvent[] = [];
  for (let i = 0; i < n; i++) {
    const head = events.at(-1) ?? null;
    events.push({ id: `e${i + 1}`, ...nextInChain({ ...input, resourceId: `t${i}` }, head) });
  }
  return events;
}

describe('the audit hash chain', () => {
  it('serialises objects with sorted keys at every level, as jsonb gives them back', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { y: 2, x: null }], c: 'é' } })).toBe(
      '{"a":{"c":"é","d":[1,{"x":null,"y":2}]},"b":1}',
    );
    expect(canonicalJson({ a: { z: 1, y: 2 } })).toBe(canonicalJson({ a: { y: 2, z: 1 } }));
  });

  it('numbers each event after its head and chains it to the head hash', () => {
    const [first, second] = chain(2);
    expect([first.seq, first.prevHash, second.seq, second.prevHash]).toEqual([
      1,
      null,
      2,
      first.hash,
    ]);
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(chainBreak(first, null)).toBeNull();
    expect(chainBreak(second, first)).toBeNull();
  });

  it('names what breaks: a changed field, a changed link, a missing or misplaced event', () => {
    const [first, second, third] = chain(3);
    expect(chainBreak({ ...second, actor: { ...second.actor, name: 'x' } }, first)).toBe(
      'hash does not match the content',
    );
    // Keys reordered, as jsonb stores them, change nothing.
    expect(
      chainBreak(
        {
          ...first,
          changes: { quiet_hours: { after: null, before: { end: '21:00', start: '08:00' } } },
        },
        null,
      ),
    ).toBeNull();
    expect(chainBreak({ ...second, prevHash: 'f'.repeat(64) }, first)).toBe(
      "prev_hash is not the previous event's hash",
    );
    expect(chainBreak(third, first)).toBe('expected event number 2, found 3');
  });
});

describe('storable', () => {
  it('replaces NUL characters and lone surrogates in keys and values, and leaves the rest', () => {
    const when = new Date(0);
    expect(
      storable({
        detail: { 'a\u0000b': ['x\ud800', 'é 日本 👍', 3, null] },
        at: when,
        fields: ['ok'],
      }),
    ).toEqual({
      detail: { 'a\uFFFDb': ['x\uFFFD', 'é 日本 👍', 3, null] },
      at: when,
      fields: ['ok'],
    });
  });
});
