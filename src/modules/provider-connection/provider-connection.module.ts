import { Module } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { ProviderConnectionController } from './api/provider-connection.controller';
import { ProviderConnectionRepository } from './application/ports/provider-connection.repository';
import { ProviderCallClients } from './application/ports/provider-call-clients';
import { SecretBox } from './application/ports/secret-box';
import { ProviderConnectionService } from './application/provider-connection.service';
import { AesGcmSecretBox, secretsKeySource } from './infrastructure/aes-gcm-secret-box';
import { SdkProviderCallClients } from './infrastructure/clients/provider-call-client.factory';
import { TypeOrmProviderConnectionRepository } from './infrastructure/provider-connection.typeorm-repository';

/**
 * Per-organization connections to voice providers (Twilio, Vapi, Retell, a team's own agent, the
 * simulator), with their credentials encrypted at rest. The calling engine resolves them through
 * the exported service and reaches the providers through the exported `ProviderCallClients`.
 */
@Module({
  controllers: [ProviderConnectionController],
  providers: [
    ProviderConnectionService,
    { provide: ProviderCallClients, useClass: SdkProviderCallClients },
    { provide: ProviderConnectionRepository, useClass: TypeOrmProviderConnectionRepository },
    {
      provide: SecretBox,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new AesGcmSecretBox(secretsKeySource(config.get('SECRETS_KEY'), config.get('database'))),
    },
  ],
  exports: [ProviderConnectionService, ProviderCallClients],
})
export class ProviderConnectionModule {}
