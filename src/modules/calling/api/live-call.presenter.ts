import { presentCallLogDetail } from '../../call-log/api/call-log.presenter.js';
import type { LiveCall } from '../application/live-call.service.js';

/**
 * The reference's flat snapshot: "a single-level dict with dotted keys for any nested values". Every
 * value is a string, number, boolean or null; an object's fields and a list's items (by index from 0)
 * are keys joined by dots (`input_data.patient.first_name`, `transcripts.0.message`). An empty object
 * or list holds no value, so it gives no key.
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
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${key}.${i}`));
    else if (typeof v === 'object' && v !== null)
      for (const [k, x] of Object.entries(v)) walk(x, `${key}.${k}`);
    else out[key] = v;
  };
  for (const [key, v] of Object.entries(value)) walk(v, key);
  return out;
}
