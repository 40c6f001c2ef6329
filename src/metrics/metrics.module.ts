import { Global, Module, Provider } from '@nestjs/common';
import { Metrics } from '../common/metrics/metrics.js';
import { MetricsController } from './metrics.controller.js';
import { PrometheusMetrics } from './prometheus-metrics.js';

export const METRICS_ADAPTERS: Provider[] = [{ provide: Metrics, useExisting: PrometheusMetrics }];

/**
 * Prometheus metrics at `/metrics`; the `Metrics` port for application services. Requests are counted
 * by `httpMetrics`, which app.setup.ts mounts first.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [PrometheusMetrics],
  exports: [PrometheusMetrics],
})
export class MetricsModule {}
