import { Module } from '@nestjs/common';
import { BlacklistController } from './api/blacklist.controller.js';
import { BlacklistService } from './application/blacklist.service.js';
import { BlacklistRepository } from './application/ports/blacklist.repository.js';
import { TypeOrmBlacklistRepository } from './infrastructure/blacklist.typeorm-repository.js';

/** Blacklists of phone numbers that a campaign applies: a listed number is never dialled. */
@Module({
  controllers: [BlacklistController],
  providers: [
    BlacklistService,
    { provide: BlacklistRepository, useClass: TypeOrmBlacklistRepository },
  ],
  exports: [BlacklistService],
})
export class BlacklistModule {}
