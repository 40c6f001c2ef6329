import { Injectable } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { ComplianceService } from '../../compliance/application/compliance.service.js';
import { DoNotCallService } from '../../compliance/application/do-not-call.service.js';
import { TargetTransitions } from '../../target/application/ports/target-transitions.js';
import type { CallingDecision } from '../../telephony/domain/calling-rules.js';
import type { Message } from '../domain/message.js';
import { decideText } from '../domain/text-rules.js';

/**
 * Whether a text may be sent now, by the organization's calling rules (quiet hours in the recipient's
 * zones, restricted dates) and its do-not-call list: read here, decided by `decideText`.
 */
@Injectable()
export class TextPermission {
  constructor(
    private readonly transitions: TargetTransitions,
    private readonly compliance: ComplianceService,
    private readonly doNotCall: DoNotCallService,
    private readonly clock: Clock,
  ) {}

  async decide(text: Message): Promise<CallingDecision> {
    const target = text.targetId
      ? await this.transitions.findById(null, text.organizationId, text.targetId)
      : null;
    const now = this.clock.now();
    const policy = await this.compliance.policyForCalls(text.organizationId);
    const place = this.compliance.place(target?.timeZone ?? null, text.to, policy);
    const listed = await this.doNotCall.listedAmong(null, text.organizationId, [text.to]);
    return decideText({
      now,
      policy,
      zones: place.zones,
      doNotCallSince: listed.get(text.to) ?? null,
    });
  }
}
