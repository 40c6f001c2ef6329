import { Module } from '@nestjs/common';
import { DoNotCallController } from './api/do-not-call.controller.js';
import { DoNotCallService } from './application/do-not-call.service.js';
import { DoNotCallRepository } from './application/ports/do-not-call.repository.js';
import { RecipientLocks } from './application/ports/recipient-locks.js';
import { TypeOrmDoNotCallRepository } from './infrastructure/do-not-call.typeorm-repository.js';
import { SqlRecipientLocks } from './infrastructure/recipient-locks.sql-adapter.js';

/**
 * The calling rules an organization's calls are judged by (docs/compliance.md): its policy (quiet
 * hours in the recipient's zones, state rules, caps per number across campaigns, restricted dates),
 * its do-not-call list, and the record of every decision those rules made. The calling engine asks
 * this module before every call; this module knows nothing of campaigns' engines.
 */
@Module({
  controllers: [DoNotCallController],
  providers: [
    { provide: RecipientLocks, useClass: SqlRecipientLocks },
    { provide: DoNotCallRepository, useClass: TypeOrmDoNotCallRepository },
    DoNotCallService,
  ],
  exports: [RecipientLocks, DoNotCallService],
})
export class ComplianceModule {}
