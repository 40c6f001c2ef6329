import { Injectable } from '@nestjs/common';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import { ProviderConnectionService } from '../../provider-connection/application/provider-connection.service.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import type { ProviderConnection } from '../../provider-connection/domain/provider-connection.js';
import { templateFields } from '../../provider-connection/domain/twiml-template.js';
import { TargetService } from '../../target/application/target.service.js';

/** How many of the targets lacking a variable are named (all are counted). */
export const LACKING_TARGETS_SHOWN = 100;

/** A variable a campaign's calls need: an input-data or patient field one of its templates fills in. */
export interface CampaignVariable {
  /** As templates write it: `patient.first_name`, `input_data.appointment`. */
  name: string;
  /** The templates that read it: `provider_connection.twiml_template`. */
  usedIn: string[];
  /** Targets awaiting a call that lack it (see `TargetRepository.findLackingInput`). */
  lacking: number;
  /** The first of those, in creation order (at most LACKING_TARGETS_SHOWN). */
  lackingTargetIds: string[];
}

export interface CampaignVariables {
  campaignId: string;
  /** The connection whose templates were read; null when the simulator places the calls. */
  providerConnectionId: string | null;
  /** Targets awaiting a call (Pending, Waiting, Scheduled): the ones checked. */
  awaiting: number;
  variables: CampaignVariable[];
}

/**
 * `GET /campaigns/{id}/variables`: the input-data and patient fields the campaign's templates need, and which of
 * its targets still to be called lack them, so a care team fixes the data before the calls go out.
 */
@Injectable()
export class CampaignVariablesService {
  constructor(
    private readonly campaigns: CampaignReader,
    private readonly connections: ProviderConnectionService,
    private readonly targets: TargetService,
  ) {}

  async forCampaign(organizationId: string, campaignId: string): Promise<CampaignVariables> {
    const campaign = await this.campaigns.get(organizationId, campaignId);
    const connection = await this.connections.findForCampaign(
      organizationId,
      campaign.providerConnectionId,
    );
    const needed = new Map<string, { path: string[]; usedIn: string[] }>();
    for (const { source, text } of templatesOf(campaign, connection)) {
      for (const path of templateFields(text)) {
        const name = path.join('.');
        const entry = needed.get(name) ?? { path, usedIn: [] };
        entry.usedIn.push(source);
        needed.set(name, entry);
      }
    }
    const fields = [...needed.entries()];
    const { awaiting, gaps } = await this.targets.findLackingInput(
      organizationId,
      campaign.id,
      fields.map(([, f]) => f.path),
      LACKING_TARGETS_SHOWN,
    );
    return {
      campaignId: campaign.id,
      providerConnectionId: connection?.id ?? null,
      awaiting,
      variables: fields.map(([name, f], i) => ({
        name,
        usedIn: f.usedIn,
        lacking: gaps[i].lacking,
        lackingTargetIds: gaps[i].targetIds,
      })),
    };
  }
}

/**
 * The templates filled from a target's input data and patient for the campaign's calls and texts, each named by
 * where it is set: the connection's TwiML, the voicemail message left (the campaign's, else the
 * connection's), the campaign's follow-up text.
 */
function templatesOf(
  campaign: Campaign,
  connection: ProviderConnection | null,
): { source: string; text: string }[] {
  const candidates: [string, unknown][] = [
    ['provider_connection.twiml_template', connection?.settings.twiml_template],
    campaign.voicemailMessage !== null
      ? ['voicemail_message', campaign.voicemailMessage]
      : ['provider_connection.voicemail_message', connection?.settings.voicemail_message],
    ['sms_follow_up.template', campaign.smsFollowUp?.template],
  ];
  return candidates
    .filter((c): c is [string, string] => typeof c[1] === 'string')
    .map(([source, text]) => ({ source, text }));
}
