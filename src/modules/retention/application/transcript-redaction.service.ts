import { Injectable } from '@nestjs/common';
import type { Tx } from '../../../common/persistence/unit-of-work.js';
import { phoneForms, redactDeep } from '../domain/redaction.js';
import type { RetentionPolicy } from '../domain/retention-policy.js';
import { TargetData } from './ports/patient-data-holders.js';
import { Redactor } from './ports/redactor.js';
import { RetentionStore } from './ports/retention.store.js';

/** What a call's end is about to write that may name its person. */
export interface CallRecordText {
  organizationId: string;
  targetId: string;
  transcripts: Record<string, string>[];
  postCallData: Record<string, unknown> | null;
}

/**
 * Redaction before storage, where the organization (or the campaign) turned `redact_transcripts` on:
 * the calling module hands over transcripts and post-call data, the messaging module inbound texts,
 * before they are written. The original is not kept anywhere; webhooks and reads see what was stored.
 */
@Injectable()
export class TranscriptRedactionService {
  constructor(
    private readonly targets: TargetData,
    private readonly store: RetentionStore,
    private readonly redactor: Redactor,
  ) {}

  /** The policy in force for a campaign's targets: its own, else its organization's. */
  private async policyFor(tx: Tx | null, organizationId: string, campaignId: string | null) {
    const all = await this.store.policies(organizationId, tx);
    const own = campaignId === null ? undefined : all.find((p) => p.campaignId === campaignId);
    return (own ?? all.find((p) => p.campaignId === null))?.policy ?? null;
  }

  /** The same records, redacted where the target's policy says so. */
  async redactCallRecords<T extends CallRecordText>(tx: Tx | null, records: T[]): Promise<T[]> {
    if (records.length === 0) return records;
    const policies = new Map<string, RetentionPolicy | null>();
    const orgs = [...new Set(records.map((r) => r.organizationId))];
    // Most organizations redact nothing: their calls cost one read of the policies, no target read.
    const redacting: string[] = [];
    for (const org of orgs) {
      const all = await this.store.policies(org, tx);
      if (all.some((p) => p.policy.redactTranscripts)) redacting.push(org);
    }
    if (redacting.length === 0) return records;
    const known = await this.targets.knownTargets(
      tx,
      records.filter((r) => redacting.includes(r.organizationId)),
    );
    const byTarget = new Map(known.map((k) => [`${k.organizationId}/${k.targetId}`, k]));
    return Promise.all(
      records.map(async (r) => {
        const target = byTarget.get(`${r.organizationId}/${r.targetId}`);
        if (!target) return r;
        const key = `${target.organizationId}/${target.campaignId}`;
        if (!policies.has(key)) {
          policies.set(key, await this.policyFor(tx, target.organizationId, target.campaignId));
        }
        if (!policies.get(key)?.redactTranscripts) return r;
        const redact = (text: string) => this.redactor.redact(text, target.knownValues);
        return {
          ...r,
          transcripts: await redactDeepAsync(r.transcripts, redact),
          postCallData: r.postCallData && (await redactDeepAsync(r.postCallData, redact)),
        };
      }),
    );
  }

  /** An inbound text's body, redacted when the policy of its target (or organization) says so. */
  async redactInboundText(
    tx: Tx | null,
    text: { organizationId: string; targetId: string | null; from: string; body: string },
  ): Promise<string> {
    const [target] =
      text.targetId === null
        ? []
        : await this.targets.knownTargets(tx, [
            { organizationId: text.organizationId, targetId: text.targetId },
          ]);
    const policy = await this.policyFor(tx, text.organizationId, target?.campaignId ?? null);
    if (!policy?.redactTranscripts) return text.body;
    return this.redactor.redact(text.body, [
      ...(target?.knownValues ?? []),
      ...phoneForms(text.from),
    ]);
  }
}

/** `redactDeep` for a redactor that may answer a promise: strings collected, redacted, put back. */
async function redactDeepAsync<T>(
  value: T,
  redact: (text: string) => Promise<string> | string,
): Promise<T> {
  const found: string[] = [];
  redactDeep(value, (s) => {
    found.push(s);
    return s;
  });
  const done = await Promise.all(found.map((s) => redact(s)));
  let i = 0;
  return redactDeep(value, () => done[i++]);
}
