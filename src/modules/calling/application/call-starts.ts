import { Injectable } from '@nestjs/common';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { CallLogService } from '../../call-log/application/call-log.service.js';
import type { Campaign } from '../../campaign/domain/campaign.js';
import { ComplianceService } from '../../compliance/application/compliance.service.js';
import { TargetEventLog, WORKER } from '../../target/application/ports/target-event-log.js';
import { TargetTransitions } from '../../target/application/ports/target-transitions.js';
import type { Target } from '../../target/domain/target.js';
import { CallProvider } from '../../telephony/application/ports/call-provider.js';
import { ClaimedCall } from './call-placement.js';
import { CallingSettings } from './calling-settings.js';
import { PlacementRate } from './ports/placement-rate.js';

/** The caller id shown when the campaign has none (the reference service's placeholder). */
export const DEFAULT_FROM = 'DeprecatedLocalTest';

/** A due target the claim decided to call, and the number it dials. */
export interface CallToStart {
  target: Target;
  to: string;
}

/**
 * Starting, inside the claim transaction: the calls the campaign's free slots and the provider's
 * per-second budget admit get an open call log with a placing deadline, a line in the calls per
 * number the caps count, a timeline reason, and their target `In Progress`. What it returns is handed
 * to `CallPlacement`, which dials outside the transaction.
 */
@Injectable()
export class CallStarts {
  constructor(
    private readonly targets: TargetTransitions,
    private readonly callLogs: CallLogService,
    private readonly compliance: ComplianceService,
    private readonly events: TargetEventLog,
    private readonly rate: PlacementRate,
    private readonly settings: CallingSettings,
  ) {}

  /**
   * The calls admitted, at most the campaign's free slots and the provider's budget this second;
   * `rateLimitedUntil` is set when the budget cut them.
   */
  async admit(
    tx: Tx,
    campaign: Campaign,
    provider: CallProvider,
    calls: CallToStart[],
    at: Date,
  ): Promise<{ admitted: CallToStart[]; rateLimitedUntil: Date | null }> {
    let admitted = calls;
    if (admitted.length > 0) {
      const slots =
        campaign.maxConcurrentCalls - (await this.targets.countInFlight(tx, campaign.id));
      admitted = admitted.slice(0, Math.max(0, slots));
    }
    if (admitted.length > 0 && this.settings.callsPerSecond > 0) {
      const granted = await this.rate.take(
        tx,
        provider.name,
        admitted.length,
        this.settings.callsPerSecond,
        at,
      );
      if (granted < admitted.length) {
        const rateLimitedUntil = new Date(Math.floor(at.getTime() / 1000) * 1000 + 1000);
        return { admitted: admitted.slice(0, granted), rateLimitedUntil };
      }
    }
    return { admitted, rateLimitedUntil: null };
  }

  /** Opens the calls' logs and starts their targets; every target must be locked by the caller. */
  async start(
    tx: Tx,
    campaign: Campaign,
    provider: CallProvider,
    starting: CallToStart[],
    at: Date,
  ): Promise<ClaimedCall[]> {
    const from = campaign.callerId ?? DEFAULT_FROM;
    const deadlineAt = this.settings.placingDeadline(at);
    const logs = starting.map(({ target, to }) => ({
      organizationId: target.organizationId,
      campaignId: target.campaignId,
      targetId: target.id,
      attempt: target.attempts + 1,
      to,
      from,
      provider: provider.name,
      startedAt: at,
      deadlineAt,
    }));
    const ids = await this.callLogs.startMany(tx, logs);
    await this.compliance.recordCalls(
      tx,
      campaign.organizationId,
      starting.map(({ to }, i) => ({ phoneNumber: to, callLogId: ids[i], placedAt: at })),
    );
    if (starting.length > 0) {
      await this.events.attribute(tx, {
        actor: WORKER,
        reasonsByTarget: Object.fromEntries(
          starting.map(({ target }) => [
            target.id,
            `call placed: attempt ${target.attempts + 1} of ${campaign.maxAttempts}`,
          ]),
        ),
      });
    }
    const started = await this.targets.startCalls(
      tx,
      campaign.organizationId,
      starting.map(({ target }, i) => ({ targetId: target.id, callLogId: ids[i] })),
      at,
    );
    // Every target was locked by the claim, so each starts; the check keeps a mismatch from going unseen.
    if (started.length !== starting.length) throw new Error('a locked target did not start');
    return starting.map(({ target, to }, i) => ({
      provider,
      log: {
        ...logs[i],
        id: ids[i],
        providerCallId: null,
        outcome: null,
        endedReason: null,
        callCategorization: null,
        agentData: {},
        postCallData: null,
        qa: null,
        transcripts: [],
        recordingUrls: [],
        outputData: null,
        subcategory: null,
        endedAt: null,
        durationSeconds: null,
        createdAt: at,
      },
      request: {
        callLogId: ids[i],
        targetId: target.id,
        campaignId: campaign.id,
        campaignType: campaign.type,
        attempt: target.attempts + 1,
        to,
        from,
        inputData: target.inputData,
        patient: target.patient,
        voicemailMessage: campaign.voicemailMessage,
        eventsUrl: this.settings.eventsUrl(provider.name),
      },
    }));
  }
}
