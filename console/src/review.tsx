import { useMay } from './permissions.js';
import { targetName } from './patient.js';
import { useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, when, type Campaign, type Target } from './api.js';
import { href } from './app.js';
import { CodeWords, Notice, Pager, usePoll } from './ui.js';

/** Targets read per campaign and request (the API's largest page); "Load more" reads the next ones. */
const PER_CAMPAIGN = 100;
const CAMPAIGN_PAGES_MAX = 10;
const PAGE_SIZE = 25;
/** One list request per campaign (plus the campaign list) a minute: within the default rate limit. */
const POLL_MS = 60000;
const PARALLEL = 4;

export interface ReviewItem {
  target: Target;
  campaign: Campaign;
  /** When it went to review, as near as the target says: its last call, else its last update. */
  since: string;
}

interface Queue {
  items: ReviewItem[];
  /** Campaigns with more `To review` targets than were read (a next cursor). */
  truncated: Campaign[];
  campaigns: number;
}

export type ReviewAction = 'done' | 'requeue';

async function pool<T, R>(items: T[], n: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return out;
}

/** Every campaign's `To review` targets, up to `depth` pages of PER_CAMPAIGN each (keyset cursors). */
async function loadQueue(client: CampaignCallingClient, depth: number): Promise<Queue> {
  const campaigns: Campaign[] = [];
  for (let page = 0; page < CAMPAIGN_PAGES_MAX; page++) {
    const { data, error, response } = await client.GET('/api/v1/campaigns', {
      params: { query: { page, limit: 100 } },
    });
    if (!data) throw new Error(errorText(error, response.status));
    campaigns.push(...data.campaigns);
    if (data.next_page === null || data.next_page === undefined) break;
  }
  const truncated: Campaign[] = [];
  const lists = await pool(campaigns, PARALLEL, async (campaign) => {
    const targets: Target[] = [];
    let cursor: string | undefined;
    for (let read = 0; read < depth; read++) {
      const { data, error, response } = await client.GET(
        '/api/v1/campaigns/{campaign_id}/targets',
        {
          params: {
            path: { campaign_id: campaign.id },
            query: { status: 'To review', limit: PER_CAMPAIGN, ...(cursor ? { cursor } : {}) },
          },
        },
      );
      if (!data) throw new Error(`${campaign.name}: ${errorText(error, response.status)}`);
      targets.push(...data.targets);
      cursor = data.next_cursor ?? undefined;
      if (!cursor) break;
    }
    if (cursor) truncated.push(campaign);
    return targets.map((target) => ({
      target,
      campaign,
      since: target.last_call_date ?? target.updated_at ?? target.created_at ?? '',
    }));
  });
  const items = lists.flat().sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
  return { items, truncated, campaigns: campaigns.length };
}

/**
 * Every `To review` target of every campaign, oldest first (by its last call), read with the targets
 * list's status filter, one request per campaign.
 */
export function ReviewPage({ client }: { client: CampaignCallingClient }) {
  const mayDecide = useMay('targets.review');
  const [page, setPage] = useState(0);
  const [depth, setDepth] = useState(1);
  const [said, setSaid] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  /** Reviewed here in this read of the queue: hidden at once; the next read shows what is true. */
  const [reviewed, setReviewed] = useState<{ of: Queue | null; ids: Set<string> }>({
    of: null,
    ids: new Set(),
  });
  const queue = usePoll(() => loadQueue(client, depth), [depth], POLL_MS);
  const q = queue.value;
  const hidden = reviewed.of === q ? reviewed.ids : new Set<string>();
  const items = (q?.items ?? []).filter((i) => !hidden.has(i.target.id));

  const review = async (item: ReviewItem, action: ReviewAction) => {
    const name = label(item.target);
    setBusy(item.target.id);
    setSaid(null);
    const { data, error, response } = await client.POST('/api/v1/targets/{target_id}/review', {
      params: { path: { target_id: item.target.id } },
      body: { action },
    });
    setBusy(null);
    if (data) {
      setReviewed({ of: q, ids: new Set(hidden).add(item.target.id) });
      setSaid({
        kind: 'ok',
        text:
          action === 'done'
            ? `${name} marked done (Finished).`
            : `${name} re-queued: it will be called again (Scheduled).`,
      });
    } else {
      // 409: someone else reviewed it meanwhile (or its campaign was cancelled): say so, read again.
      setSaid({ kind: 'error', text: `${name}: ${errorText(error, response.status)}` });
    }
    queue.reload();
  };
  // The campaigns that have a target to review (not every campaign read).
  const withReview = new Set(items.map((i) => i.campaign.id)).size;
  const pageCount = Math.ceil(items.length / PAGE_SIZE);
  const shown = items.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  return (
    <>
      <h1>Review queue</h1>
      <p class="muted">
        Targets whose call needs a person (status <code>To review</code>) in every campaign, oldest
        first. Refreshed every minute.{' '}
        <button type="button" class="link" onClick={queue.reload}>
          Refresh now
        </button>
      </p>
      {queue.error ? (
        <Notice kind="error">Could not load the review queue: {queue.error}</Notice>
      ) : null}
      {q ? (
        <p role="status" data-review-count={items.length}>
          {items.length === 0
            ? `Nothing to review in the ${q.campaigns} campaign${q.campaigns === 1 ? '' : 's'}.`
            : `${items.length} target${items.length === 1 ? '' : 's'} to review in ${withReview} campaign${withReview === 1 ? '' : 's'}.`}
        </p>
      ) : null}
      {said ? <Notice kind={said.kind}>{said.text}</Notice> : null}
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Targets to review">
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Since</th>
              <th scope="col">Patient</th>
              <th scope="col">MRN</th>
              <th scope="col">Campaign</th>
              <th scope="col">Phone</th>
              <th scope="col">Outcome</th>
              <th scope="col">Retries</th>
              <th scope="col">Decision</th>
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 ? (
              <tr>
                <td colSpan={8}>{q ? 'Nothing to review.' : 'Loading…'}</td>
              </tr>
            ) : (
              shown.map((item) => {
                const { target: t, campaign: c, since } = item;
                return (
                  <tr key={t.id} data-target-id={t.id}>
                    <td data-label="Since">{when(since)}</td>
                    <td data-label="Patient">
                      <a href={href.target(t.id)}>{label(t)}</a>
                    </td>
                    <td data-label="MRN">{t.external_id ?? ''}</td>
                    <td data-label="Campaign">
                      <a href={href.campaign(c.id)}>{c.name}</a>
                    </td>
                    <td data-label="Phone">{t.phone_number}</td>
                    <td data-label="Outcome">{t.outcome ?? <CodeWords code={t.resolution} />}</td>
                    <td data-label="Retries">{t.retries}</td>
                    <td data-label="Decision">
                      {mayDecide ? (
                        <div class="buttons">
                          <button
                            type="button"
                            disabled={busy !== null}
                            aria-label={`Mark ${label(t)} done`}
                            onClick={() => review(item, 'done')}
                          >
                            Done
                          </button>
                          <button
                            type="button"
                            class="secondary"
                            disabled={busy !== null}
                            aria-label={`Re-queue ${label(t)}`}
                            onClick={() => review(item, 'requeue')}
                          >
                            Re-queue
                          </button>
                        </div>
                      ) : (
                        <span class="muted">An operator decides</span>
                      )}
                    </td>
                  </tr>
                );
              })
            )}
          </tbody>
        </table>
      </div>
      {pageCount > 1 ? (
        <Pager page={page} pageCount={pageCount} onPage={setPage} label="Review queue pages" />
      ) : null}
      {q?.truncated.length ? (
        <div class="notice notice-info" data-more-campaigns={q.truncated.length}>
          <p>
            {q.truncated.map((c) => c.name).join(', ')} {q.truncated.length === 1 ? 'has' : 'have'}{' '}
            more targets to review than were read ({PER_CAMPAIGN * depth} a campaign so far).
          </p>
          <button type="button" class="secondary" onClick={() => setDepth(depth + 1)}>
            Load more
          </button>
        </div>
      ) : null}
    </>
  );
}

/** How a target is named on this page: the patient's name first (patient.ts). */
function label(t: Target): string {
  return targetName(t);
}
