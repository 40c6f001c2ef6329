import { Global, Module } from '@nestjs/common';
import { Metrics } from '../common/metrics/metrics';
import { MetricsController } from './metrics.controller';
import { PrometheusMetrics } from './prometheus-metrics';

/**
 * Prometheus metrics at `/metrics`; the `Metrics` port for application services. Requests are counted
 * by `httpMetrics`, which app.setup.ts mounts first.
 */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [PrometheusMetrics, { provide: Metrics, useExisting: PrometheusMetrics }],
  exports: [Metrics, PrometheusMetrics],
})
export class MetricsModule {}
