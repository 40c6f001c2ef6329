/**
 * Texts benchmark (a script, not a test), on PostgreSQL, in one service process (ROLE=all):
 *
 * 1. Calls and texts in the same run: BENCH_TEXT_TARGETS targets of a campaign without texts are
 *    called (0 s no-answer calls through the simulator): calls placed per second. Then as many
 *    targets of a campaign with `sms_follow_up` on NO_RESPONSE: each no-answer call is followed by a
 *    simulated text; texts sent per second is counted from the first text queued to the last one
 *    settled (each one: the calling rules' decision, the send, the target moved on, `message.status`).
 * 2. Replies: 100 concurrent inbound texts posted by the Twilio emulator to a Twilio connection's
 *    messages route (signature checked, matched to the target, recorded, `message.received`): p50,
 *    p95 and max of the answers' latencies, over BENCH_REPLY_ROUNDS rounds.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:texts
 */
import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { TwilioEmulator } from '../test/support/emulators/twilio-emulator.js';
import { freePort } from '../test/support/run-process.js';
import {
  Api,
  benchApi,
  loadAverage,
  percentile,
  round,
  runBench,
  serverVersion,
  SummaryRow,
  waitForCount,
  withBenchService,
  writeResult,
} from './support.js';

const TARGETS = Number(process.env.BENCH_TEXT_TARGETS ?? 2000);
const CONCURRENT_REPLIES = 100;
const REPLY_ROUNDS = Number(process.env.BENCH_REPLY_ROUNDS ?? 5);
const FROM = '+15550009999';

/**
 * Distinct numbers the simulator does not answer (last four digits 0000) and whose texts it delivers
 * without a reply (the two digits before them are 00).
 */
const unanswered = (first: number, i: number) => `+1${String(first + i)}000000`;

async function calledCampaign(
  api: Api,
  first: number,
  extra: Record<string, unknown>,
): Promise<string> {
  const campaign = await api('POST', '/api/v1/campaigns', {
    name: 'bench texts',
    type: 'patient',
    max_attempts: 1,
    max_concurrent_calls: 1000,
    ...extra,
  });
  for (let offset = 0; offset < TARGETS; offset += 5000) {
    const n = Math.min(5000, TARGETS - offset);
    await api('POST', `/api/v1/campaigns/${campaign.id}/targets`, {
      targets: Array.from({ length: n }, (_, i) => ({
        phone_number: unanswered(first, offset + i),
        input_data: { first_name: `Patient ${offset + i}` },
      })),
    });
  }
  return campaign.id as string;
}

async function main(): Promise<void> {
  if (TARGETS > 3999) throw new Error('BENCH_TEXT_TARGETS: at most 3999 (distinct numbers)');
  const port = await freePort();
  const publicBaseUrl = `http://127.0.0.1:${port}`;
  const env = {
    ROLE: 'all',
    PORT: String(port),
    PUBLIC_BASE_URL: publicBaseUrl,
    PROVIDER_ALLOW_PRIVATE: 'true',
    // The Twilio connection's credentials are sealed at rest.
    SECRETS_KEY: randomBytes(32).toString('base64'),
    SIMULATED_CALL_SECONDS: '0',
    CALLS_PER_SECOND: '0',
    DEFAULT_CALLING_POLICY: 'unrestricted',
    JOB_POLL_INTERVAL_SECONDS: process.env.JOB_POLL_INTERVAL_SECONDS ?? '0.5',
  };
  const result: Record<string, unknown> = {
    date: new Date().toISOString(),
    targets: TARGETS,
    concurrent_replies: CONCURRENT_REPLIES,
    reply_rounds: REPLY_ROUNDS,
    node: process.version,
    load_before: loadAverage(),
  };
  const account = { sid: 'AC' + 'be'.repeat(16), token: 'bench-auth-token' };
  const twilio = await new TwilioEmulator(account.sid, account.token).start();
  try {
    await withBenchService(env, async ({ service, raw, dbName }) => {
      const { api } = await benchApi(service, dbName);
      result.postgres = await serverVersion(raw);
      result.worker_concurrency = service.config.get('WORKER_CONCURRENCY');

      // 1a. Calls alone.
      const calls = await calledCampaign(api, 2000, {});
      const callsStart = Date.now();
      await api('POST', `/api/v1/campaigns/${calls}/calls`, { count: TARGETS });
      await waitForCount(
        raw,
        `SELECT count(*)::int AS n FROM call_logs WHERE campaign_id = $1 AND provider_call_id IS NOT NULL`,
        [calls],
        TARGETS,
        50,
      );
      result.calls_placed_per_second = round(TARGETS / ((Date.now() - callsStart) / 1000));

      // 1b. Each call followed by a text.
      const texts = await calledCampaign(api, 2000 + TARGETS, {
        sms_follow_up: {
          on_categories: ['NO_RESPONSE'],
          template: 'Hi {{input_data.first_name}}, we tried to reach you. Call us at +15550001111.',
          after: 'last_attempt',
        },
      });
      await api('POST', `/api/v1/campaigns/${texts}/calls`, { count: TARGETS });
      await waitForCount(
        raw,
        `SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1 AND settled_at IS NOT NULL`,
        [texts],
        TARGETS,
        50,
      );
      const { rows } = await raw.query(
        `SELECT extract(epoch FROM max(settled_at) - min(created_at)) AS seconds,
                count(*) FILTER (WHERE status = 'delivered')::int AS delivered
           FROM messages WHERE campaign_id = $1`,
        [texts],
      );
      result.texts_sent_per_second = round(TARGETS / Number(rows[0].seconds));
      result.texts_delivered = rows[0].delivered;
      await waitForCount(
        raw,
        `SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1 AND status = 'Finished'`,
        [texts],
        TARGETS,
        50,
      );
      result.ratio_texts_to_calls_per_second = round(
        (result.texts_sent_per_second as number) / (result.calls_placed_per_second as number),
      );

      // 2. Replies through a Twilio connection's messages route, 100 at once.
      const connection = await api('POST', '/api/v1/provider-connections', {
        name: 'bench twilio',
        type: 'twilio',
        credentials: { account_sid: account.sid, auth_token: account.token },
        settings: {
          api_base_url: twilio.baseUrl,
          from_number: FROM,
          twiml_template: '<Response><Say>Hello</Say></Response>',
        },
      });
      const url = `${publicBaseUrl}/api/v1/telephony/${connection.id}/messages`;
      const latencies: number[] = [];
      for (let round = 0; round < REPLY_ROUNDS; round++) {
        const answers = await Promise.all(
          Array.from({ length: CONCURRENT_REPLIES }, async (_, i) => {
            const start = performance.now();
            const posted = await twilio.postIncomingMessage(url, {
              from: unanswered(2000 + TARGETS, round * CONCURRENT_REPLIES + i),
              to: FROM,
              body: 'Thanks, I will call you back tomorrow.',
            });
            latencies.push(performance.now() - start);
            return posted.status;
          }),
        );
        if (answers.some((s) => s !== 200)) throw new Error(`replies answered ${answers}`);
      }
      result.reply_latency_ms = {
        p50: round(percentile(latencies, 50)),
        p95: round(percentile(latencies, 95)),
        max: round(Math.max(...latencies)),
      };
      const matched = await raw.query(
        `SELECT count(*)::int AS n FROM messages WHERE direction = 'inbound' AND target_id IS NOT NULL`,
      );
      result.replies_matched_to_targets = matched.rows[0].n;
    });
  } finally {
    await twilio.stop();
  }
  result.load_after = loadAverage();
  const p95 = (result.reply_latency_ms as { p95: number }).p95;
  result.summary = [
    {
      path: 'texts sent per second (simulator)',
      ours: `${result.texts_sent_per_second}/s`,
      baseline: `${result.calls_placed_per_second} calls/s`,
      ratio: result.ratio_texts_to_calls_per_second as number,
      goal: 'measured against calls, same run',
      met: null,
    },
    {
      path: 'POST /telephony/{id}/messages, 100 concurrent replies',
      ours: `p95 ${p95} ms`,
      baseline: '-',
      ratio: null,
      goal: 'measured',
      met: null,
    },
  ] satisfies SummaryRow[];
  writeResult('texts', result);
}

runBench(main);
