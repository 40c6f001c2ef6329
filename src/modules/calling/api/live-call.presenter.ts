import { presentCallLogDetail } from '../../call-log/api/call-log.presenter.js';
import type { LiveCall } from '../application/live-call.service.js';

/**
 * The reference's flat snapshot: one level, a nested value's path joined by dots
 * (`input_data.patient.first_name`, `transcripts.0.message`). An empty object or list stays a value.
 */
export function presentLiveCall(call: LiveCall): Record<string, unknown> {
  const { log, target } = call;
  const { id: _id, to, ...shown } = presentCallLogDetail(log, false);
  return flatten({
    source: call.source,
    call_log_id: log.id,
    user_phone_number: to,
    ...shown,
    campaign_id: log.campaignId,
    attempt: log.attempt,
    provider: log.provider,
    provider_call_id: log.providerCallId,
    outcome: log.outcome,
    started_at: log.startedAt.toISOString(),
    ended_at: log.endedAt?.toISOString() ?? null,
    target_status: target?.status ?? null,
    external_id: target?.externalId ?? null,
    input_data: target?.inputData ?? {},
    output_data: log.outputData ?? target?.outputData ?? {},
  });
}

function flatten(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const walk = (v: unknown, key: string) => {
    const entries = Array.isArray(v)
      ? v.map((x, i) => [String(i), x] as const)
      : typeof v === 'object' && v !== null
        ? Object.entries(v)
        : [];
    if (entries.length === 0) out[key] = v;
    else for (const [k, x] of entries) walk(x, `${key}.${k}`);
  };
  for (const [key, v] of Object.entries(value)) walk(v, key);
  return out;
}
