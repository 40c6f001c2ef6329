import { Operation } from '../../../common/http/api-operation.js';
import { Audit, listedIds } from '../../../common/audit/audit.decorators.js';
import { requireCampaignReach } from '../../../common/auth/auth-context.js';
import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import {
  Auth,
  type AuthContext,
  RequiresPermission,
  CampaignScope,
} from '../../../common/http/auth.decorators.js';
import { pageEnvelope } from '../../../common/paging/paging.js';
import { WebhookDeliveryService } from '../application/webhook-delivery.service.js';
import {
  ListDeliveriesQueryDto,
  RerunFailedWebhooksDto,
  RerunFailedWebhooksResponseDto,
  WebhookDeliveryDetailDto,
  WebhookDeliveryPageDto,
  WebhookSecretResponseDto,
} from './dto/webhook.dto.js';
import { presentDelivery, presentDeliveryDetail } from './webhook.presenter.js';

const VALIDATION = { status: 422, description: 'Validation Error (FastAPI-style detail list)' };
const NOT_FOUND = {
  status: 404,
  description: 'Unknown, or another organization\'s: `{"detail": "..."}`',
};
const CAMPAIGN_ID = { name: 'campaign_id', description: 'The ID of the campaign.' };

/** Outbound webhook notifications: rerun of failed ones, delivery records, secret rotation. */
@ApiTags('webhooks')
@Controller('api/v1')
export class WebhookController {
  constructor(private readonly webhooks: WebhookDeliveryService) {}

  @RequiresPermission('webhooks.rerun')
  @Audit({ action: 'webhook.rerun', resource: 'campaign' })
  @Post('campaigns/:campaign_id/webhooks/rerun-failed')
  @HttpCode(202)
  @Operation(
    'rerun_failed_webhooks_api_v1_campaigns__campaign_id__webhooks_rerun_failed_post',
    'Rerun Failed Webhooks',
    'Re-run failed webhook notifications for a campaign within a time window: every `failed` delivery ' +
      'whose event was created in [from_date, to_date] is queued again (once) with a fresh retry schedule ' +
      'and the same webhook-id.',
  )
  @ApiParam(CAMPAIGN_ID)
  @ApiBody({ type: RerunFailedWebhooksDto })
  @ApiResponse({ status: 202, type: RerunFailedWebhooksResponseDto })
  @ApiResponse(NOT_FOUND)
  @ApiResponse(VALIDATION)
  async rerunFailed(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Body() body: RerunFailedWebhooksDto,
  ): Promise<RerunFailedWebhooksResponseDto> {
    const requeued = await this.webhooks.rerunFailed(
      auth.organizationId,
      campaignId,
      String(body.from_date),
      String(body.to_date),
    );
    return { requeued };
  }

  @RequiresPermission('webhooks.read')
  @Audit({
    action: 'webhook_delivery.list',
    resource: 'webhook_delivery',
    ids: listedIds('deliveries'),
  })
  @Get('campaigns/:campaign_id/webhooks/deliveries')
  @Operation(
    'list_webhook_deliveries_api_v1_campaigns__campaign_id__webhooks_deliveries_get',
    'List webhook deliveries',
    "The campaign's notifications in creation order, optionally by status.",
  )
  @ApiParam(CAMPAIGN_ID)
  @ApiResponse({ status: 200, type: WebhookDeliveryPageDto })
  @ApiResponse(NOT_FOUND)
  @ApiResponse(VALIDATION)
  async list(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
    @Query() query: ListDeliveriesQueryDto,
  ): Promise<WebhookDeliveryPageDto> {
    const { items, total } = await this.webhooks.list(
      auth.organizationId,
      campaignId,
      query.status ?? null,
      query,
    );
    return { deliveries: items.map(presentDelivery), ...pageEnvelope(query, total) };
  }

  @RequiresPermission('webhooks.read')
  @CampaignScope('handler')
  @Audit({
    action: 'webhook_delivery.read',
    resource: 'webhook_delivery',
    id: (req) => req.params.delivery_id,
  })
  @Get('webhook-deliveries/:delivery_id')
  @Operation(
    'get_webhook_delivery_api_v1_webhook_deliveries__delivery_id__get',
    'Get a webhook delivery with its attempts',
    "One notification of a campaign of the caller's organization, with every attempt made: time, " +
      'status code, duration, error and a response excerpt.',
  )
  @ApiParam({ name: 'delivery_id', description: 'The ID of the delivery.' })
  @ApiResponse({ status: 200, type: WebhookDeliveryDetailDto })
  @ApiResponse(NOT_FOUND)
  async get(
    @Auth() auth: AuthContext,
    @Param('delivery_id') deliveryId: string,
  ): Promise<WebhookDeliveryDetailDto> {
    const delivery = await this.webhooks.get(auth.organizationId, deliveryId);
    requireCampaignReach(auth, delivery.campaignId, `Webhook delivery ${deliveryId} not found`);
    return presentDeliveryDetail(delivery);
  }

  @RequiresPermission('webhooks.rotate_secret')
  @Audit({ action: 'webhook_secret.rotate', resource: 'campaign' })
  @Post('campaigns/:campaign_id/webhook-secret/rotate')
  @HttpCode(200)
  @Operation(
    'rotate_webhook_secret_api_v1_campaigns__campaign_id__webhook_secret_rotate_post',
    'Rotate the webhook signing secret',
    'Generates a new `whsec_` secret; every attempt from now on is signed with it.',
  )
  @ApiParam(CAMPAIGN_ID)
  @ApiResponse({ status: 200, type: WebhookSecretResponseDto })
  @ApiResponse(NOT_FOUND)
  async rotateSecret(
    @Auth() auth: AuthContext,
    @Param('campaign_id') campaignId: string,
  ): Promise<WebhookSecretResponseDto> {
    return { webhook_secret: await this.webhooks.rotateSecret(auth.organizationId, campaignId) };
  }
}
