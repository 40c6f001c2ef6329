import { Module } from '@nestjs/common';
import { RecipientLocks } from './application/ports/recipient-locks.js';
import { SqlRecipientLocks } from './infrastructure/recipient-locks.sql-adapter.js';

/**
 * The calling rules an organization's calls are judged by (docs/compliance.md): its policy (quiet
 * hours in the recipient's zones, state rules, caps per number across campaigns, restricted dates),
 * its do-not-call list, and the record of every decision those rules made. The calling engine asks
 * this module before every call; this module knows nothing of campaigns' engines.
 */
@Module({
  controllers: [],
  providers: [{ provide: RecipientLocks, useClass: SqlRecipientLocks }],
  exports: [RecipientLocks],
})
export class ComplianceModule {}
