import { Controller, Get, HttpCode, HttpException, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../common/http/auth.decorators.js';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../../database/connection-errors.js';
import { HealthService } from './health.service.js';

@ApiTags('health')
@Public()
@Controller('api/v1/health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @HttpCode(200)
  @ApiOperation({ operationId: 'health_check_api_v1_health_get', summary: 'Health Check' })
  @ApiResponse({ status: 200, schema: { example: { status: 'ok' } } })
  @ApiResponse({ status: 503, schema: { example: { detail: 'Service Unavailable' } } })
  async check(@Res({ passthrough: true }) res: Response): Promise<{ status: 'ok' }> {
    if (!(await this.health.database()).ok) {
      res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      throw new HttpException({ message: 'Service Unavailable' }, 503);
    }
    return { status: 'ok' };
  }

  /** Readiness: the database and the job queue answer and the process is not stopping. */
  @Get('ready')
  @ApiExcludeEndpoint()
  async ready(@Res({ passthrough: true }) res: Response): Promise<unknown> {
    const { ok, result } = await this.health.ready();
    if (!ok) res.status(503).setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
    return result;
  }

  /** Liveness: the process answers. Never depends on the database. */
  @Get('live')
  @ApiExcludeEndpoint()
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
