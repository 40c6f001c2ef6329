import type { PatientRecord } from '../domain/patient-record.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** The record as the API shows it; a purged value reads null (or empty), never an error. */
export const presentRecord = (r: PatientRecord) => ({
  targets: r.targets.map((t) => ({
    id: t.id,
    campaign_id: t.campaignId,
    external_id: t.externalId,
    phone_number: t.phoneNumber,
    fallback_phone_number: t.fallbackPhoneNumber,
    patient: t.patient,
    input_data: t.purgedParts.includes('input_data') ? null : t.inputData,
    output_data: t.purgedParts.includes('input_data') ? null : t.outputData,
    status: t.status,
    category: t.category,
    resolution: t.resolution,
    created_at: t.createdAt.toISOString(),
    purged_at: iso(t.purgedAt),
    purged_parts: t.purgedParts,
  })),
  total_targets: r.totalTargets,
  call_logs: r.callLogs.map((c) => ({
    id: c.id,
    campaign_id: c.campaignId,
    target_id: c.targetId,
    to_number: c.toNumber === '' ? null : c.toNumber,
    outcome: c.outcome,
    transcripts: c.transcripts,
    post_call_data: c.postCallData,
    recording_urls: c.recordingUrls,
    started_at: c.startedAt.toISOString(),
    ended_at: iso(c.endedAt),
  })),
  messages: r.messages.map((m) => ({
    id: m.id,
    campaign_id: m.campaignId,
    target_id: m.targetId,
    direction: m.direction,
    to_number: m.toNumber === '' ? null : m.toNumber,
    from_number: m.fromNumber,
    body: m.body === '' ? null : m.body,
    status: m.status,
    created_at: m.createdAt.toISOString(),
  })),
  do_not_call: r.doNotCall.map((d) => ({
    id: Number(d.id),
    phone_number: d.phoneNumber,
    reason: d.reason,
    source: d.source,
    added_at: d.addedAt.toISOString(),
    removed_at: iso(d.removedAt),
  })),
  decisions: r.decisions.map((d) => ({
    id: Number(d.id),
    campaign_id: d.campaignId,
    target_id: d.targetId,
    rule: d.rule,
    action: d.action,
    reason: d.reason,
    decided_at: d.decidedAt.toISOString(),
  })),
});

export const RECORD_CSV_HEADER = ['kind', 'id', 'campaign_id', 'target_id', 'at', 'status', 'data'];

/** One CSV row per entry of the record: its kind, ids, time, status and the rest as JSON. */
export function recordCsvRows(r: ReturnType<typeof presentRecord>): string[][] {
  const row = (
    kind: string,
    e: { id: string | number; campaign_id?: string | null; target_id?: string | null },
    at: string,
    status: string | null,
  ) => [
    kind,
    String(e.id),
    e.campaign_id ?? '',
    e.target_id ?? (kind === 'target' ? String(e.id) : ''),
    at,
    status ?? '',
    JSON.stringify(e),
  ];
  return [
    ...r.targets.map((t) => row('target', t, t.created_at, t.status)),
    ...r.call_logs.map((c) => row('call_log', c, c.started_at, c.outcome)),
    ...r.messages.map((m) => row('message', m, m.created_at, m.status)),
    ...r.do_not_call.map((d) =>
      row('do_not_call', d, d.added_at, d.removed_at ? 'removed' : 'listed'),
    ),
    ...r.decisions.map((d) => row('decision', d, d.decided_at, d.action)),
  ];
}
