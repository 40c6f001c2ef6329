import type { AuditEvent } from './audit-event.js';

/**
 * An audit event's fields by their snake_case names, which the API answer, the CSV export and the
 * table all use, each with the event's property that holds it (the organization is the trail's, not
 * a field). One list, in the CSV's order: a new field is added here once. The actor is one field in
 * the API and four columns (`actor_kind`, `actor_id`, `actor_name`, `actor_role`) in the table and CSV.
 */
export const AUDIT_EVENT_FIELDS = {
  seq: 'seq',
  id: 'id',
  occurred_at: 'occurredAt',
  actor: 'actor',
  action: 'action',
  resource_type: 'resourceType',
  resource_id: 'resourceId',
  campaign_id: 'campaignId',
  resource_ids: 'resourceIds',
  outcome: 'outcome',
  client_address: 'clientAddress',
  request_id: 'requestId',
  changed_fields: 'changedFields',
  changes: 'changes',
  detail: 'detail',
  prev_hash: 'prevHash',
  hash: 'hash',
} as const satisfies Record<string, keyof AuditEvent>;

type Fields = typeof AUDIT_EVENT_FIELDS;
const ACTOR_PARTS = ['kind', 'id', 'name', 'role'] as const;
type FlatActor = { [P in (typeof ACTOR_PARTS)[number] as `actor_${P}`]: string };

/** The event under its fields' names. */
export type NamedAuditEvent = { [F in keyof Fields]: AuditEvent[Fields[F]] };
/** The same with the actor in four columns: a stored row's or a CSV line's content. */
export type FlatAuditEvent = Omit<NamedAuditEvent, 'actor'> & FlatActor;

/** The columns of a flat event, in the CSV's order. */
export const FLAT_AUDIT_COLUMNS = Object.keys(AUDIT_EVENT_FIELDS).flatMap((name) =>
  name === 'actor' ? ACTOR_PARTS.map((p) => `actor_${p}` as const) : [name],
) as (keyof FlatAuditEvent)[];

export function namedAuditEvent(e: AuditEvent): NamedAuditEvent {
  return Object.fromEntries(
    Object.entries(AUDIT_EVENT_FIELDS).map(([name, key]) => [name, e[key]]),
  ) as NamedAuditEvent;
}

/** An event about to be stored has no id yet (the table gives it one): its flat form has none. */
export function flatAuditEvent(e: AuditEvent): FlatAuditEvent;
export function flatAuditEvent(e: Omit<AuditEvent, 'id'>): Omit<FlatAuditEvent, 'id'>;
export function flatAuditEvent(e: Omit<AuditEvent, 'id'>): Omit<FlatAuditEvent, 'id'> {
  const { actor, ...rest } = namedAuditEvent(e as AuditEvent);
  return {
    ...rest,
    actor_kind: actor.kind,
    actor_id: actor.id,
    actor_name: actor.name,
    actor_role: actor.role,
  };
}

/** The event a flat one holds, for the organization's trail. */
export function fromFlatAuditEvent(organizationId: string, r: FlatAuditEvent): AuditEvent {
  const event = Object.fromEntries(
    Object.entries(AUDIT_EVENT_FIELDS).map(([name, key]) => [
      key,
      name === 'actor'
        ? { kind: r.actor_kind, id: r.actor_id, name: r.actor_name, role: r.actor_role }
        : r[name as Exclude<keyof Fields, 'actor'>],
    ]),
  ) as unknown as Omit<AuditEvent, 'organizationId'>;
  return { ...event, organizationId };
}
