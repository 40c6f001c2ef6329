import { useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, when, type Campaign, type Target } from './api.js';
import { href } from './app.js';
import { Notice, Pager, usePoll } from './ui.js';

/** Targets read per campaign (the API's largest page); a campaign with more says so. */
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
  /** Campaigns with more `To review` targets than were read. */
  truncated: Campaign[];
  campaigns: number;
}

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

async function loadQueue(client: CampaignCallingClient): Promise<Queue> {
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
    const { data, error, response } = await client.GET('/api/v1/campaigns/{campaign_id}/targets', {
      params: {
        path: { campaign_id: campaign.id },
        query: { status: 'To review', limit: PER_CAMPAIGN, page: 0 },
      },
    });
    if (!data) throw new Error(`${campaign.name}: ${errorText(error, response.status)}`);
    if (data.page_count > 1) truncated.push(campaign);
    return data.targets.map((target) => ({
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
  const [page, setPage] = useState(0);
  const queue = usePoll(() => loadQueue(client), [], POLL_MS);
  const q = queue.value;
  const items = q?.items ?? [];
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
          {items.length} target{items.length === 1 ? '' : 's'} to review in {q.campaigns} campaign
          {q.campaigns === 1 ? '' : 's'}.
        </p>
      ) : null}
      {q?.truncated.length ? (
        <Notice kind="info">
          Only the first {PER_CAMPAIGN} of {q.truncated.map((c) => c.name).join(', ')} are listed:
          see their campaign page (status filter) for the rest.
        </Notice>
      ) : null}
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Targets to review">
        <table>
          <thead>
            <tr>
              <th scope="col">Since</th>
              <th scope="col">Target</th>
              <th scope="col">Campaign</th>
              <th scope="col">Phone</th>
              <th scope="col">Outcome</th>
              <th scope="col">Retries</th>
            </tr>
          </thead>
          <tbody>
            {shown.length === 0 ? (
              <tr>
                <td colSpan={6}>{q ? 'Nothing to review.' : 'Loading…'}</td>
              </tr>
            ) : (
              shown.map(({ target: t, campaign: c, since }) => (
                <tr key={t.id} data-target-id={t.id}>
                  <td>{when(since)}</td>
                  <td>
                    <a href={href.target(t.id)}>{t.external_id || t.id.slice(0, 8)}</a>
                  </td>
                  <td>
                    <a href={href.campaign(c.id)}>{c.name}</a>
                  </td>
                  <td>{t.phone_number}</td>
                  <td>{t.outcome ?? t.resolution ?? ''}</td>
                  <td>{t.retries}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {pageCount > 1 ? (
        <Pager page={page} pageCount={pageCount} onPage={setPage} label="Review queue pages" />
      ) : null}
    </>
  );
}
