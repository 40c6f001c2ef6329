import type { ChangeActor } from '../../domain/change-actor.js';
import type { CompliancePolicy } from '../../domain/compliance-policy.js';

/** An organization's policy as last set; organizations that never set one have none (the defaults). */
export abstract class CompliancePolicyRepository {
  abstract find(organizationId: string): Promise<CompliancePolicy | null>;
  abstract save(
    organizationId: string,
    policy: CompliancePolicy,
    at: Date,
    /** Null when set by the service itself (a test, a seed). */
    updatedBy: ChangeActor | null,
  ): Promise<void>;
}
