import { Controller, Get, Module, Param } from '@nestjs/common';
import {
  Auth,
  type AuthContext,
  CampaignModule,
  CampaignService,
  RequiresPermission,
  TargetModule,
  TargetService,
} from 'campaign-calling-service';

/**
 * A route of the team's own beside the service's, using its exported services: authenticated by the
 * same API keys, answering errors with the same bodies (an unknown campaign is the service's 404).
 */
@Controller('api/v1/acme/campaigns')
export class CampaignSummaryController {
  constructor(
    private readonly campaigns: CampaignService,
    private readonly targets: TargetService,
  ) {}

  @RequiresPermission('targets.read')
  @Get(':id/summary')
  async summary(@Auth() auth: AuthContext, @Param('id') id: string) {
    const campaign = await this.campaigns.get(auth.organizationId, id);
    const page = await this.targets.list(
      auth.organizationId,
      campaign.id,
      {},
      { page: 0, limit: 100 },
    );
    return {
      campaign: campaign.name,
      carrier: 'acme',
      total: page.total,
      targets: page.targets.map((t) => ({
        phone_number: t.phoneNumber,
        status: t.status,
      })),
    };
  }
}

/** The team's module: imports the service's modules whose services it uses. */
@Module({
  imports: [CampaignModule, TargetModule],
  controllers: [CampaignSummaryController],
})
export class AcmeRoutesModule {}
