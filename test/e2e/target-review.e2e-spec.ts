import { listedTarget } from '../support/target-bodies.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/**
 * `POST /api/v1/targets/{id}/review` end to end, with the real dispatcher and the simulator: a number
 * ending 0004 asks for a person, so its target ends `To review`.
 */
describe('target review (done / requeue)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  async function tenant(campaign: Record<string, unknown> = {}) {
    const { apiKey } = await t.createOrganization();
    const { id: campaignId } = await t.createCampaign(apiKey, campaign);
    const as = (req: any) => req.set('X-API-Key', apiKey);
    const get = (id: string) => as(t.http().get(`/api/v1/targets/${id}`));
    return {
      campaignId,
      get,
      review: (id: string, body: unknown) =>
        as(t.http().post(`/api/v1/targets/${id}/review`)).send(body as object),
      cancel: () => as(t.http().post(`/api/v1/campaigns/${campaignId}/cancel`)),
      events: (id: string) => as(t.http().get(`/api/v1/targets/${id}/events?limit=200`)),
      /** One target that needs a person, called at once; resolves when it is `To review`. */
      async toReview() {
        const added = await as(t.http().post(`/api/v1/campaigns/${campaignId}/targets`)).send({
          targets: [{ phone_number: '+15550100004' }],
          launch: true,
        });
        const [id] = added.body.target_ids;
        await waitFor(
          async () => (await get(id)).body,
          (target) => target.status === 'To review',
          30_000,
        );
        return id as string;
      },
    };
  }

  it('requeue: called once more past max_attempts (dispatched at once), then done ends it Finished', async () => {
    const c = await tenant({ max_attempts: 1 });
    const id = await c.toReview();

    const requeued = await c.review(id, { action: 'requeue' });
    expect(requeued.status).toBe(200);
    expect(requeued.body).toMatchObject({
      id,
      retries: 0,
      category: 'HUMAN_ONLY',
      statistics: { review: { action: 'requeue' } },
    });
    // The answer was the target just after the update: Scheduled (unless already picked up).
    expect(['Scheduled', 'In Progress', 'Post-processing']).toContain(requeued.body.status);
    const at = requeued.body.statistics.review.at;
    expect(new Date(at).toISOString()).toBe(at);

    // No trigger: the requeue itself wakes the dispatcher, which places the extra attempt.
    const called = await waitFor(
      async () => (await c.get(id)).body,
      (target) => target.status === 'To review' && target.retries === 1,
      30_000,
    );
    expect(called.call_log_ids).toHaveLength(2);
    expect(called.statistics).toMatchObject({ attempts: 2, review: { action: 'requeue', at } });

    const done = await c.review(id, { action: 'done' });
    expect(done.status).toBe(200);
    // The answer is the target as read, without the read's own fields (waiting_reason, zones).
    expect(done.body).toEqual(listedTarget((await c.get(id)).body));
    expect(done.body).toMatchObject({
      status: 'Finished',
      category: 'HUMAN_ONLY',
      resolution: called.resolution,
      outcome: called.outcome,
      retries: 1,
      call_log_ids: called.call_log_ids,
      statistics: { review: { action: 'done' } },
    });
    // The timeline says who decided what: newest first, the done, and earlier the re-queue.
    const timeline = (await c.events(id)).body.items;
    expect(timeline[0]).toMatchObject({
      kind: 'status_changed',
      status: 'Finished',
      actor: { type: 'api_key' },
      reason: 'reviewed: marked done',
      data: { from: 'To review' },
    });
    expect(timeline).toContainEqual(
      expect.objectContaining({
        kind: 'status_changed',
        status: 'Scheduled',
        actor: timeline[0].actor,
        reason: 'reviewed: re-queued for one more attempt',
      }),
    );
  });

  it('only from To review: the next decision is a 409 naming the status', async () => {
    const c = await tenant();
    const id = await c.toReview();
    expect((await c.review(id, { action: 'done' })).status).toBe(200);
    for (const action of ['done', 'requeue']) {
      const again = await c.review(id, { action });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({
        detail: `Target ${id} is Finished, not To review; only a target To review can be marked done or re-queued`,
      });
    }
  });

  it('a requeue in a cancelled campaign is 409; done still closes the review', async () => {
    const c = await tenant();
    const id = await c.toReview();
    expect((await c.cancel()).status).toBe(200);
    const refused = await c.review(id, { action: 'requeue' });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      detail: `Campaign ${c.campaignId} is cancelled; target ${id} cannot be re-queued`,
    });
    expect((await c.get(id)).body.status).toBe('To review');
    expect((await c.review(id, { action: 'done' })).body.status).toBe('Finished');
  });

  it('another organization, an unknown id: 404; a bad body: 422', async () => {
    const c = await tenant();
    const other = await tenant();
    const id = await c.toReview();
    expect((await other.review(id, { action: 'done' })).body).toEqual({
      detail: `Target ${id} not found`,
    });
    const unknown = await c.review('nope', { action: 'done' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Target nope not found' });

    const missing = await c.review(id, {});
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'action'], msg: 'Field required', input: {} }],
    });
    const wrong = await c.review(id, { action: 'later' });
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({
      detail: [
        {
          type: 'enum',
          loc: ['body', 'action'],
          msg: "Input should be 'done' or 'requeue'",
          input: 'later',
          ctx: { expected: "'done' or 'requeue'" },
        },
      ],
    });
    expect((await c.get(id)).body.status).toBe('To review');
  });
});
