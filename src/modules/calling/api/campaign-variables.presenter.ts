import type { CampaignVariables } from '../application/campaign-variables.service.js';

export function presentCampaignVariables(v: CampaignVariables) {
  return {
    campaign_id: v.campaignId,
    provider_connection_id: v.providerConnectionId,
    targets_checked: v.awaiting,
    variables: v.variables.map((x) => ({
      name: x.name,
      used_in: x.usedIn,
      targets_missing: x.lacking,
      missing_target_ids: x.lackingTargetIds,
    })),
  };
}
