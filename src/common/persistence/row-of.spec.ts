import { rowMapper, type ListedColumns, type UnfilledFields } from './row-of.js';

interface Visit {
  id: string;
  patientName: string;
  hasPassword: boolean;
  seenAt: Date | null;
}

describe('rowMapper', () => {
  it('copies the listed columns to their fields, converted or renamed where told', () => {
    const seenAt = new Date('2026-11-28T10:00:00Z');
    const fromText = rowMapper<
      Visit,
      { id: number; name: string; has_password: boolean; seen_at: Date }
    >()(
      `v.id, p.name,
       v.password_hash IS NOT NULL AS has_password, v.seen_at`,
      { id: (row) => String(row.id) },
      { name: 'patientName' },
    );
    expect(fromText({ id: 7, name: 'Maria Lopez', has_password: true, seen_at: seenAt })).toEqual({
      id: '7',
      patientName: 'Maria Lopez',
      hasPassword: true,
      seenAt,
    });
    const fromArray = rowMapper<Visit>()([
      'id',
      'patient_name',
      'has_password',
      'seen_at',
    ] as const);
    expect(fromArray({ id: 'a', patient_name: 'Ada', has_password: false, seen_at: null })).toEqual(
      { id: 'a', patientName: 'Ada', hasPassword: false, seenAt: null },
    );
  });

  it('reads a column list the way SQL names its columns: the last word of each entry', () => {
    expectTypeOf<
      ListedColumns<'u.id, u.a IS NOT NULL AS has_a,\n  e.type AS event_type\n'>
    >().toEqualTypeOf<'id' | 'has_a' | 'event_type'>();
    expectTypeOf<ListedColumns<readonly ['id', 'seen_at']>>().toEqualTypeOf<'id' | 'seen_at'>();
    expectTypeOf<
      UnfilledFields<Visit, 'id, name, seen_at', { name: 'patientName' }>
    >().toEqualTypeOf<'hasPassword'>();
  });

  it('does not compile when a field has no column, or the list is not a literal', () => {
    // @ts-expect-error: `seenAt` has no column in the list.
    rowMapper<Visit>()('id, patient_name, has_password');
    type VisitRow = { id: string; name: string; has_password: boolean; seen_at: Date };
    // @ts-expect-error: `patientName` has none once `name` is not renamed to it.
    rowMapper<Visit, VisitRow>()('id, name, has_password, seen_at');
    const built: string = ['id', 'patient_name', 'has_password', 'seen_at'].join(', ');
    // @ts-expect-error: a list built at run time cannot be checked.
    rowMapper<Visit>()(built);
    expect(rowMapper<Visit>()('id, patient_name, has_password, seen_at')).toBeTypeOf('function');
  });
});
