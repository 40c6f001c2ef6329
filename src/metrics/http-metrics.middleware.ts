import type { NextFunction, Request, Response } from 'express';
import { PrometheusMetrics } from './prometheus-metrics.js';

/**
 * Counts every answered request by its route template (`/api/v1/targets/:target_id`, never the ids,
 * so the number of series stays bounded); requests that matched no route, or whose body was refused
 * before routing (413, malformed JSON), count as `unmatched`.
 *
 * A plain Express middleware mounted first (app.setup.ts), not a Nest one: Nest's `forRoutes('*')`
 * wrapper and path match cost a `GET /targets/{id}` a few percent of its CPU (docs/architecture.md,
 * "Hot reads").
 */
export function httpMetrics(metrics: PrometheusMetrics) {
  return function countRequest(req: Request, res: Response, next: NextFunction): void {
    const started = performance.now();
    res.once('finish', () => {
      const routePath = (req.route as { path?: string } | undefined)?.path;
      metrics.httpAnswered(
        req.method,
        routePath ? `${req.baseUrl}${routePath}` : 'unmatched',
        res.statusCode,
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}
