import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { runCli } from '../support/run-process.js';
import { startWorkerProcess, WorkerProcess } from '../support/worker-process.js';

/** Issue 12: pause, resume, cancel and progress of a campaign, on the real database. */

const FINAL = ['Finished', 'Failed', 'To review'];
const ISO = expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

/** Numbers whose last four digits pick the simulator's outcome (simulated-call-provider.ts). */
const GOOD = (i: number) => `+1555${String(1_001_000 + i)}`;
const NO_ANSWER = (i: number) => `+1556${String(1_000 + i).padStart(3, '0')}0000`;

async function addTargets(t: TestApp, apiKey: string, campaignId: string, phones: string[]) {
  const res = await t
    .http()
    .post(`/api/v1/campaigns/${campaignId}/targets`)
    .set('X-API-Key', apiKey)
    .send({ targets: phones.map((phone_number) => ({ phone_number })) });
  expect(res.status).toBe(200);
  return res.body.target_ids as string[];
}

const post = (t: TestApp, apiKey: string, path: string, body: object = {}) =>
  t.http().post(path).set('X-API-Key', apiKey).send(body);
const get = (t: TestApp, apiKey: string, path: string) =>
  t.http().get(path).set('X-API-Key', apiKey);

const statusCounts = (t: TestApp, campaignId: string) =>
  t.sql<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM targets WHERE campaign_id = $1 GROUP BY status ORDER BY status`,
    [campaignId],
  );
const inFlight = async (t: TestApp, campaignId: string) =>
  (
    await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1
          AND status IN ('In Progress', 'Post-processing')`,
      [campaignId],
    )
  )[0].n;
const callLogs = (t: TestApp, campaignId: string) =>
  t.sql<{ id: string; started_at: Date; ended_at: Date | null }>(
    `SELECT id, started_at, ended_at FROM call_logs WHERE campaign_id = $1 ORDER BY id`,
    [campaignId],
  );

/**
 * Two dispatchers (this process, ROLE=all, and a worker process) race on one campaign whose calls last
 * a second: a pause or cancel that has returned is never followed by a new call.
 */
describe('campaign control during a run (two dispatchers)', () => {
  let t: TestApp;
  let worker: WorkerProcess;

  beforeAll(async () => {
    t = await createTestApp({ env: { SIMULATED_CALL_SECONDS: '1' } });
    worker = startWorkerProcess(t);
    await worker.ready;
  });
  afterAll(async () => {
    await worker?.kill();
    await t?.close();
  });

  it('pause stops new calls at once (in-flight calls finish), resume goes on, cancel ends the rest', async () => {
    const { apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey, { max_attempts: 2, max_concurrent_calls: 4 });
    // Half answer, half do not (a retry would follow, 60 minutes later).
    const phones = Array.from({ length: 40 }, (_, i) => (i % 2 ? NO_ANSWER(i) : GOOD(i)));
    await addTargets(t, apiKey, c.id, phones);
    expect((await post(t, apiKey, `/api/v1/campaigns/${c.id}/calls`, { count: 40 })).status).toBe(
      200,
    );
    await waitFor(
      () => callLogs(t, c.id),
      (logs) => logs.length >= 6,
      30_000,
      20,
    );

    const paused = await post(t, apiKey, `/api/v1/campaigns/${c.id}/pause`);
    const pauseReturned = new Date();
    expect(paused.status).toBe(200);
    expect(paused.body).toEqual({
      ...c,
      webhook_secret: undefined,
      state: 'paused',
      state_changed_at: ISO,
      updated_at: ISO,
    });
    const startedBeforePause = await callLogs(t, c.id);
    expect(startedBeforePause.every((l) => l.started_at <= pauseReturned)).toBe(true);
    // The calls in flight end normally; each end frees a slot and wakes the dispatchers, which is when
    // they would start another call if the pause let them.
    await waitFor(
      () => inFlight(t, c.id),
      (n) => n === 0,
      30_000,
    );
    const afterPause = await callLogs(t, c.id);
    expect(afterPause.map((l) => l.id)).toEqual(startedBeforePause.map((l) => l.id));
    expect(afterPause.every((l) => l.ended_at !== null)).toBe(true);
    const scheduled = (await statusCounts(t, c.id)).find((r) => r.status === 'Scheduled');
    expect(scheduled!.n).toBeGreaterThanOrEqual(40 - afterPause.length);

    // Idempotent: the same body.
    const again = await post(t, apiKey, `/api/v1/campaigns/${c.id}/pause`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(paused.body);

    const resumed = await post(t, apiKey, `/api/v1/campaigns/${c.id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body).toEqual({
      ...paused.body,
      state: 'active',
      state_changed_at: ISO,
      updated_at: ISO,
    });
    await waitFor(
      () => callLogs(t, c.id),
      (logs) => logs.length >= afterPause.length + 6,
      30_000,
      20,
    );

    const cancelled = await post(t, apiKey, `/api/v1/campaigns/${c.id}/cancel`);
    const cancelReturned = new Date();
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({
      ...resumed.body,
      state: 'cancelled',
      state_changed_at: ISO,
      updated_at: ISO,
    });
    const startedBeforeCancel = await callLogs(t, c.id);
    expect(startedBeforeCancel.every((l) => l.started_at <= cancelReturned)).toBe(true);
    // In-flight calls end and are recorded; a call that did not answer is not retried: it ends too.
    const counts = await waitFor(
      () => statusCounts(t, c.id),
      (rows) => rows.every((r) => FINAL.includes(r.status)),
      30_000,
    );
    expect(counts.map((r) => r.status)).toEqual(['Finished']);
    const afterCancel = await callLogs(t, c.id);
    expect(afterCancel.map((l) => l.id)).toEqual(startedBeforeCancel.map((l) => l.id));
    expect(afterCancel.every((l) => l.ended_at !== null)).toBe(true);
    // Every target without an answered call says why it ended (a call in flight at the cancel that
    // was not answered too: it is not retried).
    const ended = await t.sql<{ outcome: string; attempts: number; resolution: string }>(
      `SELECT outcome, attempts, resolution FROM targets WHERE campaign_id = $1`,
      [c.id],
    );
    const answered = ended.filter((r) => r.outcome !== 'Campaign cancelled');
    expect(answered.every((r) => r.attempts === 1 && r.resolution === 'successful')).toBe(true);
    expect(ended.length - answered.length).toBeGreaterThan(0);
    expect(answered.length).toBe(
      (
        await t.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM call_logs WHERE campaign_id = $1 AND outcome = 'GOOD'`,
          [c.id],
        )
      )[0].n,
    );
  }, 120_000);
});

describe('campaign control', () => {
  let t: TestApp;

  beforeAll(async () => {
    // A long poll: only the resume's notification (or its direct wake-up) can dispatch promptly.
    t = await createTestApp({ env: { CALLING_POLL_INTERVAL_SECONDS: '60' } });
  });
  afterAll(() => t?.close());

  it('resume dispatches the due targets at once, without waiting for a poll', async () => {
    const { apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey, { max_attempts: 1 });
    expect((await post(t, apiKey, `/api/v1/campaigns/${c.id}/pause`)).status).toBe(200);
    const ids = await addTargets(t, apiKey, c.id, [GOOD(1), GOOD(2), GOOD(3)]);
    const trigger = await post(t, apiKey, `/api/v1/campaigns/${c.id}/calls`, { target_ids: ids });
    expect(trigger.body).toEqual({ scheduled: ids, skipped: [] });
    expect(await statusCounts(t, c.id)).toEqual([{ status: 'Scheduled', n: 3 }]);

    expect((await post(t, apiKey, `/api/v1/campaigns/${c.id}/resume`)).status).toBe(200);
    // Well within the 60 s poll.
    await waitFor(
      () => statusCounts(t, c.id),
      (rows) => rows.length === 1 && rows[0].status === 'Finished',
      10_000,
    );
    expect(await statusCounts(t, c.id)).toEqual([{ status: 'Finished', n: 3 }]);
  });

  it('cancel ends Pending, Scheduled and Waiting targets, notifies each, and is final', async () => {
    const { apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey, {
      type: 'payor',
      steps: [{ friendly_id: 'labs', type: 'webhook' }],
      entry_step: 'labs',
      webhook_url: 'http://127.0.0.1:9/hooks',
    });
    const waiting = await addTargets(t, apiKey, c.id, [GOOD(1)]);
    await t
      .http()
      .patch(`/api/v1/campaigns/${c.id}`)
      .set('X-API-Key', apiKey)
      .send({ entry_step: null });
    const [pending, toSchedule] = await addTargets(t, apiKey, c.id, [GOOD(2), GOOD(3)]);
    await post(t, apiKey, `/api/v1/campaigns/${c.id}/pause`);
    await post(t, apiKey, `/api/v1/campaigns/${c.id}/calls`, { target_ids: [toSchedule] });
    expect(await statusCounts(t, c.id)).toEqual([
      { status: 'Pending', n: 1 },
      { status: 'Scheduled', n: 1 },
      { status: 'Waiting', n: 1 },
    ]);

    const cancelled = await post(t, apiKey, `/api/v1/campaigns/${c.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: c.id, state: 'cancelled', state_changed_at: ISO });
    for (const id of [...waiting, pending, toSchedule]) {
      const target = await get(t, apiKey, `/api/v1/targets/${id}`);
      expect(target.body).toMatchObject({
        id,
        status: 'Finished',
        resolution: 'not_retrieved',
        category: null,
        subcategory: null,
        outcome: 'Campaign cancelled',
        call_log_ids: null,
      });
    }
    const events = await t.sql<{ type: string; target_id: string; payload: unknown }>(
      `SELECT type, target_id, payload FROM webhook_events WHERE campaign_id = $1 ORDER BY target_id`,
      [c.id],
    );
    expect(events).toEqual(
      [...waiting, pending, toSchedule].sort().map((id) => ({
        type: 'target.call_finished',
        target_id: id,
        payload: {
          type: 'target.call_finished',
          campaign_id: c.id,
          target_id: id,
          call_log_id: null,
          attempt: 0,
          max_attempts: 3,
          next_attempt_scheduled: null,
          status: 'Finished',
          resolution: 'not_retrieved',
          category: null,
          subcategory: null,
        },
      })),
    );

    // Idempotent, and final.
    const again = await post(t, apiKey, `/api/v1/campaigns/${c.id}/cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(cancelled.body);
    for (const action of ['resume', 'pause']) {
      const refused = await post(t, apiKey, `/api/v1/campaigns/${c.id}/${action}`);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        detail: `Campaign ${c.id} is cancelled; it cannot be ${action}d`,
      });
    }
    const [late] = await addTargets(t, apiKey, c.id, [GOOD(4)]);
    const trigger = await post(t, apiKey, `/api/v1/campaigns/${c.id}/calls`, {
      target_ids: [late],
    });
    expect(trigger.status).toBe(409);
    expect(trigger.body).toEqual({ detail: `Campaign ${c.id} is cancelled; no call starts again` });
    expect((await get(t, apiKey, `/api/v1/campaigns/${c.id}`)).body.state).toBe('cancelled');
  });

  it('resuming an active campaign is 200 with the same body', async () => {
    const { apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey);
    const res = await post(t, apiKey, `/api/v1/campaigns/${c.id}/resume`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...c,
      webhook_secret: undefined,
      state: 'active',
      state_changed_at: null,
    });
  });

  it('404 for another organization’s campaign, 422 for a malformed id', async () => {
    const { apiKey } = await t.createOrganization();
    const other = await t.createOrganization();
    const c = await t.createCampaign(apiKey);
    for (const action of ['pause', 'resume', 'cancel', 'stats']) {
      const path = `/api/v1/campaigns/${c.id}/${action}`;
      const foreign =
        action === 'stats' ? await get(t, other.apiKey, path) : await post(t, other.apiKey, path);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ detail: `Campaign ${c.id} not found` });
      const badPath = `/api/v1/campaigns/not-a-uuid/${action}`;
      const bad =
        action === 'stats' ? await get(t, apiKey, badPath) : await post(t, apiKey, badPath);
      expect(bad.status).toBe(422);
      expect(bad.body).toEqual({
        detail: [
          {
            loc: ['path', 'campaign_id'],
            msg: 'Input should be a valid UUID, invalid character: found `n` at 1',
            type: 'uuid_parsing',
            input: 'not-a-uuid',
            ctx: {
              error: 'invalid character: found `n` at 1',
            },
          },
        ],
      });
    }
    // Nothing changed.
    expect((await get(t, apiKey, `/api/v1/campaigns/${c.id}`)).body.state).toBe('active');
  });
});

describe('campaign stats', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('are exact after a mixed run: the same counts as listing the targets and call logs', async () => {
    const { apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey, { max_attempts: 2, retry_delay_minutes: 60 });
    const suffixes = ['0000', '0001', '0002', '0003', '0004', '1234', '5678', '9999'];
    const phones = Array.from(
      { length: 24 },
      (_, i) => `+1557${String(100 + i)}${suffixes[i % 8]}`,
    );
    const ids = await addTargets(t, apiKey, c.id, phones);
    // 20 are called; 4 stay Pending.
    await post(t, apiKey, `/api/v1/campaigns/${c.id}/calls`, { target_ids: ids.slice(0, 20) });
    // Each called target ends, or waits Scheduled for its retry an hour later.
    await waitFor(
      () =>
        t.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1
            AND (status IN ('In Progress', 'Post-processing') OR (status = 'Scheduled' AND attempts = 0))`,
          [c.id],
        ),
      (rows) => rows[0].n === 0,
      30_000,
    );

    const listed = (await get(t, apiKey, `/api/v1/campaigns/${c.id}/targets?limit=100`)).body
      .targets as {
      status: string;
      category: string | null;
      resolution: string | null;
      call_log_ids: number[] | null;
      scheduled_time: string | null;
    }[];
    const logs = (await get(t, apiKey, `/api/v1/call-logs?campaign_id=${c.id}&limit=1000`)).body
      .call_logs as { call_categorization: { outcome: string } | null; call_length: string }[];
    const tally = (values: (string | null)[]) => {
      const out: Record<string, number> = {};
      for (const v of values) if (v !== null) out[v] = (out[v] ?? 0) + 1;
      return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
    };
    const seconds = (hms: string) => {
      const [h, m, s] = hms.split(':').map(Number);
      return h * 3600 + m * 60 + s;
    };
    const connected = logs.filter((l) =>
      ['GOOD', 'HUMAN_ONLY'].includes(l.call_categorization?.outcome ?? ''),
    );
    const scheduled = listed.filter((x) => x.status === 'Scheduled');
    const next = scheduled.map((x) => x.scheduled_time!).sort()[0] ?? null;
    const byStatus = Object.fromEntries(
      [
        'Pending',
        'Scheduled',
        'In Progress',
        'Post-processing',
        'Finished',
        'To review',
        'Failed',
        'Waiting',
        'SMS Scheduled',
      ].map((s) => [s, listed.filter((x) => x.status === s).length]),
    );

    const stats = await get(t, apiKey, `/api/v1/campaigns/${c.id}/stats`);
    expect(stats.status).toBe(200);
    expect(stats.body).toEqual({
      campaign_id: c.id,
      state: 'active',
      as_of: ISO,
      targets: {
        total: 24,
        by_status: byStatus,
        by_category: tally(listed.map((x) => x.category)),
        by_resolution: tally(listed.map((x) => x.resolution)),
      },
      attempts: listed.reduce((sum, x) => sum + (x.call_log_ids?.length ?? 0), 0),
      calls_in_flight: 0,
      ended_calls: logs.length,
      connected_calls: connected.length,
      connect_rate: Math.round((connected.length / logs.length) * 10_000) / 10_000,
      average_call_seconds:
        connected.length === 0
          ? null
          : Math.round(
              (connected.reduce((sum, l) => sum + seconds(l.call_length), 0) / connected.length) *
                10_000,
            ) / 10_000,
      due_now: 0,
      due_later: scheduled.length,
      held_by_rule: {},
      next_scheduled_time: next,
      recent_calls_per_minute: Math.round((logs.length / 15) * 10_000) / 10_000,
      estimated_completion_at: ISO,
      // Retries, scheduled later, are held by no calling rule.
      estimate_held_until: null,
      estimate_held_by_rule: {},
    });
    // The mix is what the simulator's table makes of these numbers.
    expect(byStatus.Pending).toBe(4);
    expect(logs.length).toBe(20);
    expect(scheduled.length).toBeGreaterThan(0);
    expect(connected.length).toBeGreaterThan(0);
  });

  it('stay exact under concurrent adds, deletes, calls and retries (every read adds up; the end matches the rows)', async () => {
    const { apiKey } = await t.createOrganization();
    // Retries due at once: targets go back to Scheduled and are called again while stats are read.
    const c = await t.createCampaign(apiKey, {
      max_attempts: 3,
      retry_delay_minutes: 0,
      max_concurrent_calls: 20,
    });
    const suffixes = ['0000', '0001', '0002', '0003', '0004', '1234'];
    const phone = (i: number) => `+1558${String(1000 + i)}${suffixes[i % suffixes.length]}`;
    const path = `/api/v1/campaigns/${c.id}`;

    const consistent = (body: any) => {
      const byStatus = body.targets.by_status as Record<string, number>;
      const sum = (m: Record<string, number>) => Object.values(m).reduce((a, b) => a + b, 0);
      expect(sum(byStatus)).toBe(body.targets.total);
      expect(body.calls_in_flight).toBe(byStatus['In Progress'] + byStatus['Post-processing']);
      expect(body.due_now + body.due_later).toBe(byStatus.Scheduled);
      expect(body.ended_calls).toBeLessThanOrEqual(body.attempts);
      expect(body.connected_calls).toBeLessThanOrEqual(body.ended_calls);
    };

    // Writers: batches added (some launched at once), some deleted, the rest triggered.
    let writing = true;
    // A launched batch's targets may already be in a call when the delete arrives: those are skipped
    // (DECISIONS: in-progress targets are not deleted), so the end total counts what was deleted.
    let deleted = 0;
    const writers = (async () => {
      for (let batch = 0; batch < 12; batch++) {
        const targets = Array.from({ length: 25 }, (_, i) => ({
          phone_number: phone(batch * 25 + i),
        }));
        const added = await post(t, apiKey, `${path}/targets`, {
          targets,
          launch: batch % 3 === 0,
        });
        expect(added.status).toBe(200);
        const ids = added.body.target_ids as string[];
        const removed = await t
          .http()
          .delete(`${path}/targets`)
          .set('X-API-Key', apiKey)
          .send({ target_ids: ids.slice(0, 3) });
        expect(removed.status).toBe(200);
        expect(removed.body.not_found).toEqual([]);
        expect(removed.body.deleted.length + removed.body.skipped.length).toBe(3);
        for (const skipped of removed.body.skipped) expect(skipped.reason).toBe('in_progress');
        deleted += removed.body.deleted.length;
        // The batches not launched on add are triggered by id.
        const triggered =
          batch % 3 === 0
            ? null
            : await post(t, apiKey, `${path}/calls`, { target_ids: ids.slice(3) });
        expect(triggered?.status ?? 200).toBe(200);
      }
      writing = false;
    })();
    // Readers, meanwhile: each answer adds up (and their folding of the counters races the writers).
    let reads = 0;
    const readers = Promise.all(
      [0, 1].map(async () => {
        while (writing) {
          const res = await get(t, apiKey, `${path}/stats`);
          expect(res.status).toBe(200);
          consistent(res.body);
          reads++;
        }
      }),
    );
    await Promise.all([writers, readers]);
    expect(reads).toBeGreaterThan(0);

    // Every call ended and every retry is spent or done: then the stats are the rows counted.
    await waitFor(
      () =>
        t.sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1
            AND status IN ('Scheduled', 'In Progress', 'Post-processing')`,
          [c.id],
        ),
      (rows) => rows[0].n === 0,
      60_000,
    );
    const counted = async (column: string) =>
      Object.fromEntries(
        (
          await t.sql<{ k: string; n: number }>(
            `SELECT ${column} AS k, count(*)::int AS n FROM targets
              WHERE campaign_id = $1 AND ${column} IS NOT NULL GROUP BY 1 ORDER BY 1`,
            [c.id],
          )
        ).map((r) => [r.k, r.n]),
      );
    const [calls] = await t.sql<{ n: number; ended: number; connected: number }>(
      `SELECT count(*)::int AS n, count(ended_at)::int AS ended,
              count(*) FILTER (WHERE ended_at IS NOT NULL AND outcome IN ('GOOD', 'HUMAN_ONLY'))::int AS connected
         FROM call_logs WHERE campaign_id = $1`,
      [c.id],
    );
    const stats = (await get(t, apiKey, `${path}/stats`)).body;
    consistent(stats);
    const byStatus = await counted('status');
    expect(stats.targets.total).toBe(12 * 25 - deleted);
    expect(
      Object.fromEntries(Object.entries(stats.targets.by_status).filter(([, n]) => n !== 0)),
    ).toEqual(byStatus);
    expect(stats.targets.by_category).toEqual(await counted('category'));
    expect(stats.targets.by_resolution).toEqual(await counted('resolution'));
    expect([stats.attempts, stats.ended_calls, stats.connected_calls]).toEqual([
      calls.n,
      calls.ended,
      calls.connected,
    ]);
    expect(stats.calls_in_flight).toBe(0);
    expect(stats.due_now + stats.due_later).toBe(0);
    // Every target was launched or triggered, and the never-answering ones were retried.
    expect(byStatus.Pending).toBeUndefined();
    expect(calls.n).toBeGreaterThan(stats.targets.total);
  }, 120_000);
});

describe('campaign commands of the CLI', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { ROLE: 'api' } });
  });
  afterAll(() => t?.close());

  it('pause, resume, cancel and stats act as the API does', async () => {
    const { apiKey, organizationId } = await t.createOrganization();
    const c = await t.createCampaign(apiKey);
    await addTargets(t, apiKey, c.id, [GOOD(1)]);
    const env = { DATABASE_URL: t.databaseUrl };
    const cli = (command: string) => runCli([command, c.id, '--org', organizationId], env);

    const paused = cli('campaign:pause');
    expect(paused).toMatchObject({ status: 0, stdout: { id: c.id, state: 'paused' } });
    expect((await get(t, apiKey, `/api/v1/campaigns/${c.id}`)).body).toEqual(paused.stdout);
    expect(cli('campaign:resume')).toMatchObject({ status: 0, stdout: { state: 'active' } });
    const stats = cli('campaign:stats');
    expect(stats.status).toBe(0);
    expect(stats.stdout).toEqual({
      ...(await get(t, apiKey, `/api/v1/campaigns/${c.id}/stats`)).body,
      as_of: ISO,
    });
    expect(stats.stdout.targets.by_status.Pending).toBe(1);
    expect(cli('campaign:cancel')).toMatchObject({ status: 0, stdout: { state: 'cancelled' } });
    const refused = cli('campaign:resume');
    expect(refused.status).toBe(1);
    expect(JSON.parse(refused.stderr)).toEqual({
      error: `Campaign ${c.id} is cancelled; it cannot be resumed`,
    });
    // Another organization's campaign is unknown to it.
    const other = await t.createOrganization();
    const foreign = runCli(['campaign:stats', c.id, '--org', other.organizationId], env);
    expect(foreign.status).toBe(1);
    expect(JSON.parse(foreign.stderr)).toEqual({ error: `Campaign ${c.id} not found` });
  }, 120_000);
});
