import { Injectable, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { PrometheusMetrics } from './prometheus-metrics';

/**
 * Counts every answered request by its route template (`/api/v1/targets/:target_id`, never the ids,
 * so the number of series stays bounded); requests that matched no route count as `unmatched`.
 */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: PrometheusMetrics) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const routePath = (req.route as { path?: string } | undefined)?.path;
      const labels = {
        method: req.method,
        route: routePath ? `${req.baseUrl}${routePath}` : 'unmatched',
        status: String(res.statusCode),
      };
      this.metrics.httpRequests.inc(labels);
      this.metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  }
}
