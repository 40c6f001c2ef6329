import { useMay } from './permissions.js';
import { useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, when, type Campaign } from './api.js';
import { href } from './app.js';
import { loadProgress } from './progress.js';
import { Notice, Pager, ProgressBar, StateBadge, usePoll } from './ui.js';
import { CAMPAIGN_TYPE_WORDS } from './words.js';

// Each card's progress is one stats request: 10 cards polled every 10 s (60 a minute) stay well within
// the service's default per-key rate limit (RATE_LIMIT_REQUESTS=600/min).
const PAGE_SIZE = 10;
const PROGRESS_POLL_MS = 10000;

export function CampaignsPage({ client }: { client: CampaignCallingClient }) {
  const [page, setPage] = useState(0);
  const mayCreate = useMay('campaigns.create');
  const list = usePoll(
    async () => {
      const { data, error, response } = await client.GET('/api/v1/campaigns', {
        params: { query: { page, limit: PAGE_SIZE } },
      });
      if (!data) throw new Error(errorText(error, response.status));
      return data;
    },
    [page],
    15000,
  );
  return (
    <>
      <div class="title-row">
        <h1>Campaigns</h1>
        {mayCreate ? (
          <a class="button" href={href.newCampaign()}>
            New campaign
          </a>
        ) : null}
      </div>
      {list.error ? <Notice kind="error">Could not load the campaigns: {list.error}</Notice> : null}
      {!list.value ? (
        <p>Loading…</p>
      ) : list.value.campaigns.length === 0 ? (
        <p>
          No campaigns yet: <a href={href.newCampaign()}>create one</a>.
        </p>
      ) : (
        <ul class="cards" aria-label="Campaigns">
          {list.value.campaigns.map((c) => (
            <CampaignCard key={c.id} client={client} campaign={c} />
          ))}
        </ul>
      )}
      {list.value && list.value.page_count > 1 ? (
        <Pager
          page={page}
          pageCount={list.value.page_count}
          onPage={setPage}
          label="Campaign pages"
        />
      ) : null}
    </>
  );
}

function CampaignCard({ client, campaign }: { client: CampaignCallingClient; campaign: Campaign }) {
  const progress = usePoll(
    () => loadProgress(client, campaign.id),
    [campaign.id],
    PROGRESS_POLL_MS,
  );
  return (
    <li class="card" data-campaign-id={campaign.id}>
      <h2>
        <a href={href.campaign(campaign.id)}>{campaign.name}</a>{' '}
        <StateBadge state={progress.value?.stats.state ?? campaign.state} />
      </h2>
      <p class="muted">
        <span title={campaign.type}>{CAMPAIGN_TYPE_WORDS[campaign.type] ?? campaign.type}</span> ·
        created {when(campaign.created_at)}
      </p>
      <ProgressBar progress={progress.value} label={`Progress of ${campaign.name}`} />
      {progress.value && progress.value.counts['To review'] > 0 ? (
        <p class="to-review" data-to-review={progress.value.counts['To review']}>
          <a href={href.review()}>{progress.value.counts['To review']} to review</a>
        </p>
      ) : null}
    </li>
  );
}
