import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { readCampaign } from './api.js';
import { href } from './app.js';
import { usePoll } from './ui.js';

/**
 * `Campaigns / <campaign name> /` above a page of one campaign (its webhooks, one of its targets): the
 * campaign read once for its name; until it is read (or if it cannot be) the link says "Campaign".
 */
export function CampaignCrumbs({
  client,
  campaignId,
}: {
  client: CampaignCallingClient;
  campaignId: string;
}) {
  const campaign = usePoll(() => readCampaign(client, campaignId), [campaignId], 0);
  return (
    <p class="crumbs">
      <a href={href.campaigns()}>Campaigns</a> /{' '}
      <a href={href.campaign(campaignId)} data-crumb-campaign>
        {campaign.value?.name ?? 'Campaign'}
      </a>{' '}
      /
    </p>
  );
}
