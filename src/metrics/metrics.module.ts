import { Global, MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { Metrics } from '../common/metrics/metrics';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import { MetricsController } from './metrics.controller';
import { PrometheusMetrics } from './prometheus-metrics';

/** Prometheus metrics at `/metrics`; the `Metrics` port for application services. */
@Global()
@Module({
  controllers: [MetricsController],
  providers: [PrometheusMetrics, { provide: Metrics, useExisting: PrometheusMetrics }],
  exports: [Metrics, PrometheusMetrics],
})
export class MetricsModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*');
  }
}
