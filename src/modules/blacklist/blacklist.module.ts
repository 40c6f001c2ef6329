import { Module } from '@nestjs/common';
import { BlacklistController } from './api/blacklist.controller';
import { BlacklistService } from './application/blacklist.service';
import { BlacklistRepository } from './application/ports/blacklist.repository';
import { TypeOrmBlacklistRepository } from './infrastructure/blacklist.typeorm-repository';

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
