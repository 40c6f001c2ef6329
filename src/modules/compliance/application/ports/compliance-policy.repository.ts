import type { CompliancePolicy } from '../../domain/compliance-policy.js';

/** An organization's policy as last set; organizations that never set one have none (the defaults). */
export abstract class CompliancePolicyRepository {
  abstract find(organizationId: string): Promise<CompliancePolicy | null>;
  abstract save(
    organizationId: string,
    policy: CompliancePolicy,
    at: Date,
    apiKeyId: string | null,
  ): Promise<void>;
}
