import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BlacklistController } from './api/blacklist.controller';
import { BlacklistService } from './application/blacklist.service';
import { BlacklistRepository } from './application/ports/blacklist.repository';
import { BlacklistOrmEntity } from './infrastructure/blacklist.orm-entity';
import { TypeOrmBlacklistRepository } from './infrastructure/blacklist.typeorm-repository';

/** Blacklists of phone numbers that a campaign applies: a listed number is never dialled. */
@Module({
  imports: [TypeOrmModule.forFeature([BlacklistOrmEntity])],
  controllers: [BlacklistController],
  providers: [
    BlacklistService,
    { provide: BlacklistRepository, useClass: TypeOrmBlacklistRepository },
  ],
  exports: [BlacklistService],
})
export class BlacklistModule {}
