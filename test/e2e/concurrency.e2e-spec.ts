import { createTestApp, TestApp, waitFor } from '../support/test-app.js';
import { startWorkerProcess, WorkerProcess } from '../support/worker-process.js';

const FINAL = ['Finished', 'Failed', 'To review'];

/**
 * Many API calls and two worker processes on one database: claims are atomic, no target is dialled
 * twice, the per-campaign cap holds, and a killed worker's calls still end.
 */
describe('concurrency (two worker processes)', () => {
  let t: TestApp;
  let workers: WorkerProcess[] = [];

  beforeAll(async () => {
    // The test process only serves the API; the two child processes do all the dispatching.
    t = await createTestApp({
      env: {
        ROLE: 'api',
        CALL_PLACING_DEADLINE_SECONDS: '2',
        SIMULATED_CALL_SECONDS: '0',
      },
    });
    workers = [startWorkerProcess(t), startWorkerProcess(t)];
    await Promise.all(workers.map((w) => w.ready));
  });

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill()));
    await t?.close();
  });

  async function campaignWithTargets(campaign: Record<string, unknown>, count: number) {
    const { apiKey } = await t.createOrganization();
    const c = await t.createCampaign(apiKey, campaign);
    const res = await t
      .http()
      .post(`/api/v1/campaigns/${c.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({
        targets: Array.from({ length: count }, (_, i) => ({
          phone_number: goodNumber(),
          input_data: { i },
        })),
      });
    expect(res.status).toBe(200);
    return { apiKey, campaignId: c.id as string, ids: res.body.target_ids as string[] };
  }

  const statuses = (campaignId: string) =>
    t.sql<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM targets WHERE campaign_id = $1 GROUP BY status`,
      [campaignId],
    );
  const allFinal = (rows: { status: string; n: number }[]) =>
    rows.every((r) => FINAL.includes(r.status));

  it('20 parallel triggers over the same 200 targets: each scheduled once and dialled exactly once', async () => {
    const { apiKey, campaignId, ids } = await campaignWithTargets(
      { max_attempts: 1, max_concurrent_calls: 1000 },
      200,
    );
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t
          .http()
          .post(`/api/v1/campaigns/${campaignId}/calls`)
          .set('X-API-Key', apiKey)
          .send(
            i % 2 === 0
              ? { target_ids: shuffle(ids) }
              : { count: 25, prioritize_oldest: i % 4 === 1 },
          ),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const scheduled = responses.flatMap((r) => r.body.scheduled as string[]);
    expect(scheduled).toHaveLength(200);
    expect(new Set(scheduled)).toEqual(new Set(ids));

    await waitFor(() => statuses(campaignId), allFinal, 60_000);
    const perTarget = await t.sql<{ n: number }>(
      `SELECT count(l.id)::int AS n FROM targets t LEFT JOIN call_logs l ON l.target_id = t.id
        WHERE t.campaign_id = $1 GROUP BY t.id`,
      [campaignId],
    );
    expect(perTarget).toHaveLength(200);
    expect(perTarget.every((r) => r.n === 1)).toBe(true);
  });

  it('never has more than max_concurrent_calls calls of a campaign in flight', async () => {
    const { apiKey, campaignId, ids } = await campaignWithTargets(
      { max_attempts: 1, max_concurrent_calls: 3 },
      24,
    );
    const env = { SIMULATED_CALL_SECONDS: '0.3' };
    const slow = [startWorkerProcess(t, env), startWorkerProcess(t, env)];
    try {
      // Only the slow workers dial this campaign, so calls overlap long enough to measure.
      await Promise.all(workers.map((w) => w.stop()));
      await Promise.all(slow.map((w) => w.ready));
      const res = await t
        .http()
        .post(`/api/v1/campaigns/${campaignId}/calls`)
        .set('X-API-Key', apiKey)
        .send({ target_ids: ids });
      expect(res.body.scheduled).toHaveLength(24);
      await waitFor(() => statuses(campaignId), allFinal, 90_000);
      const [{ peak }] = await t.sql(
        `SELECT max(n)::int AS peak FROM (
           SELECT (SELECT count(*) FROM call_logs o WHERE o.campaign_id = l.campaign_id
                    AND o.started_at <= l.started_at AND o.ended_at > l.started_at) AS n
             FROM call_logs l WHERE l.campaign_id = $1) x`,
        [campaignId],
      );
      expect(peak).toBeGreaterThanOrEqual(2);
      expect(peak).toBeLessThanOrEqual(3);
    } finally {
      await Promise.all(slow.map((w) => w.stop()));
      workers = [startWorkerProcess(t), startWorkerProcess(t)];
      await Promise.all(workers.map((w) => w.ready));
    }
  });

  it('a PATCH racing the dispatcher never edits a target after its call started', async () => {
    const { apiKey, campaignId, ids } = await campaignWithTargets(
      { max_attempts: 1, max_concurrent_calls: 1000 },
      60,
    );
    const trigger = t
      .http()
      .post(`/api/v1/campaigns/${campaignId}/calls`)
      .set('X-API-Key', apiKey)
      .send({ target_ids: ids });
    const patches = ids.map((id, i) =>
      new Promise((r) => setTimeout(r, i * 3)).then(() =>
        t
          .http()
          .patch(`/api/v1/targets/${id}`)
          .set('X-API-Key', apiKey)
          .send({ input_data: { patched: true } }),
      ),
    );
    const [, ...patched] = await Promise.all([trigger, ...patches]);
    expect(patched.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    await waitFor(() => statuses(campaignId), allFinal, 60_000);

    const logs = await t.sql<{ target_id: string; patched: boolean | null }>(
      `SELECT target_id, (agent_data -> 'input_data' ->> 'patched')::boolean AS patched FROM call_logs
        WHERE campaign_id = $1`,
      [campaignId],
    );
    const dialledWith = new Map(logs.map((l) => [l.target_id, l.patched === true]));
    // A PATCH that succeeded committed before the call started, so the call saw it; a refused one did not.
    ids.forEach((id, i) =>
      expect([id, dialledWith.get(id)]).toEqual([id, patched[i].status === 200]),
    );
  });

  it('a worker killed mid-call: every target still reaches a final state, none dialled twice', async () => {
    const env = { SIMULATED_CALL_SECONDS: '2' };
    await Promise.all(workers.map((w) => w.stop()));
    // Worker A places the first calls alone and is killed while they run; worker B then carries on.
    const a = startWorkerProcess(t, env);
    workers = [a];
    await a.ready;
    const { apiKey, campaignId, ids } = await campaignWithTargets(
      { max_attempts: 3, retry_delay_minutes: 0, max_concurrent_calls: 1000 },
      40,
    );
    await t
      .http()
      .post(`/api/v1/campaigns/${campaignId}/calls`)
      .set('X-API-Key', apiKey)
      .send({ target_ids: ids });
    await waitFor(
      () =>
        t.sql(
          `SELECT count(*)::int AS n FROM targets WHERE campaign_id = $1 AND status = 'In Progress'`,
          [campaignId],
        ),
      (rows) => rows[0].n >= 4,
      30_000,
      20,
    );
    await a.kill();
    const b = startWorkerProcess(t, env);
    workers.push(b);
    await b.ready;

    await waitFor(() => statuses(campaignId), allFinal, 90_000, 250);
    const logs = await t.sql<{
      target_id: string;
      ended_at: Date | null;
      ended_reason: string;
      provider_call_id: string | null;
    }>(
      `SELECT target_id, ended_at, ended_reason, provider_call_id FROM call_logs WHERE campaign_id = $1`,
      [campaignId],
    );
    expect(logs.every((l) => l.ended_at !== null)).toBe(true);
    // Exactly one call per target: a call the dead worker had placed still ends (the simulator's
    // pending ends are durable and any worker delivers them); one it had claimed but not yet placed
    // is never dialled again (the provider may have it), it goes to a person for review.
    expect(logs.map((l) => l.target_id).sort()).toEqual([...ids].sort());
    const lost = new Set(
      logs.filter((l) => l.ended_reason === 'worker-lost').map((l) => l.target_id),
    );
    const providerIds = (ofLost: boolean) =>
      logs.filter((l) => lost.has(l.target_id) === ofLost).map((l) => l.provider_call_id);
    expect(providerIds(true).filter((id) => id !== null)).toEqual([]);
    expect(providerIds(false).filter((id) => !/^sim-/.test(id ?? ''))).toEqual([]);
    const finals = await t.sql<{ id: string; status: string }>(
      `SELECT id, status FROM targets WHERE campaign_id = $1`,
      [campaignId],
    );
    for (const { id, status } of finals) {
      expect([id, status]).toEqual([id, lost.has(id) ? 'To review' : 'Finished']);
    }
  });
});

let n = 0;
/** Last four digits 1000..9999: a good call in the simulator. */
function goodNumber(): string {
  const i = n++;
  return `+1555${String(300 + Math.floor(i / 9000)).padStart(3, '0')}${1000 + (i % 9000)}`;
}

function shuffle<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}
