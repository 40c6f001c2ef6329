import { Module } from '@nestjs/common';
import { CampaignCallingModule, loadConfig } from 'campaign-calling-service';
import { AcmeRoutesModule } from './acme/campaign-summary.controller.js';
import { EXTENSIONS } from './campaign-calling.options.js';
import { ConsentModule } from './consent/consent.module.js';

/**
 * The service with the team's extensions, on the database DATABASE_URL names: with none, embedded
 * PGlite in ./.data/pglite, as the service's own `npm start` runs.
 */
@Module({
  imports: [
    CampaignCallingModule.forRoot({
      config: loadConfig(process.env),
      ...EXTENSIONS,
    }),
    ConsentModule,
    AcmeRoutesModule,
  ],
})
export class AppModule {}
