import { Global, Module } from '@nestjs/common';
import { Metrics } from '../common/metrics/metrics.js';
import { MetricsController } from './metrics.controller.js';
import { PrometheusMetrics } from './prometheus-metrics.js';

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
