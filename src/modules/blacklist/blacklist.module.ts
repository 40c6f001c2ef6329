import { Module, Provider } from '@nestjs/common';
import { BlacklistController } from './api/blacklist.controller.js';
import { BlacklistService } from './application/blacklist.service.js';
import { BlacklistRepository } from './application/ports/blacklist.repository.js';
import { SqlBlacklistRepository } from './infrastructure/blacklist-repository.sql.js';

/** The adapters of this module's ports, bound by the root module (where another may be chosen). */
export const BLACKLIST_ADAPTERS: Provider[] = [
  { provide: BlacklistRepository, useClass: SqlBlacklistRepository },
];

/** Blacklists of phone numbers that a campaign applies: a listed number is never dialled. */
@Module({
  controllers: [BlacklistController],
  providers: [BlacklistService],
  exports: [BlacklistService],
})
export class BlacklistModule {}
