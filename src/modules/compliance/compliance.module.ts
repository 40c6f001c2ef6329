import { Logger, Module, Provider } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { ComplianceController } from './api/compliance.controller.js';
import { DoNotCallController } from './api/do-not-call.controller.js';
import { ComplianceService, DefaultCallingPolicy } from './application/compliance.service.js';
import { DoNotCallService } from './application/do-not-call.service.js';
import { CallLedger } from './application/ports/call-ledger.js';
import { CompliancePolicyRepository } from './application/ports/compliance-policy.repository.js';
import { DecisionLog } from './application/ports/decision-log.js';
import { DoNotCallRepository } from './application/ports/do-not-call.repository.js';
import { RecipientLocks } from './application/ports/recipient-locks.js';
import { DEFAULT_POLICY, UNRESTRICTED_POLICY } from './domain/compliance-policy.js';
import { SqlCallLedger } from './infrastructure/call-ledger.sql.js';
import { SqlCompliancePolicyRepository } from './infrastructure/compliance-policy-repository.sql.js';
import { SqlDecisionLog } from './infrastructure/decision-log.sql.js';
import { SqlDoNotCallRepository } from './infrastructure/do-not-call-repository.sql.js';
import { SqlRecipientLocks } from './infrastructure/recipient-locks.sql.js';
import { ComplianceData } from '../retention/application/ports/patient-data-holders.js';
import { SqlComplianceData } from './infrastructure/compliance-data.sql.js';

export const COMPLIANCE_ADAPTERS: Provider[] = [
  { provide: ComplianceData, useClass: SqlComplianceData },
  { provide: CompliancePolicyRepository, useClass: SqlCompliancePolicyRepository },
  { provide: CallLedger, useClass: SqlCallLedger },
  { provide: DecisionLog, useClass: SqlDecisionLog },
  { provide: DoNotCallRepository, useClass: SqlDoNotCallRepository },
  { provide: RecipientLocks, useClass: SqlRecipientLocks },
];

/**
 * The calling rules an organization's calls are judged by (docs/compliance.md): its policy (quiet
 * hours in the recipient's zones, state rules, caps per number across campaigns, restricted dates),
 * its do-not-call list, and the record of every decision those rules made. The calling engine asks
 * this module before every call; this module knows nothing of campaigns or targets.
 */
@Module({
  controllers: [ComplianceController, DoNotCallController],
  providers: [
    ComplianceService,
    DoNotCallService,
    {
      provide: DefaultCallingPolicy,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const unrestricted = config.get('DEFAULT_CALLING_POLICY') === 'unrestricted';
        if (unrestricted) {
          new Logger('Compliance').warn(
            'DEFAULT_CALLING_POLICY=unrestricted: organizations without a policy of their own are ' +
              "called at any hour of the recipient's day, without state rules",
          );
        }
        return new DefaultCallingPolicy(unrestricted ? UNRESTRICTED_POLICY : DEFAULT_POLICY);
      },
    },
  ],
  exports: [ComplianceService, DoNotCallService],
})
export class ComplianceModule {}
