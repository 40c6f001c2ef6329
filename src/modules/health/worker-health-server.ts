import { createServer, Server } from 'http';
import { PrometheusMetrics } from '../../metrics/prometheus-metrics.js';
import { HealthService } from './health.service.js';

/**
 * A worker process serves no API, but orchestrators still need to probe it and Prometheus to scrape
 * it: this answers `/api/v1/health`, `/api/v1/health/live`, `/api/v1/health/ready` and `/metrics` on
 * HEALTH_PORT, nothing else.
 */
export async function startWorkerHealthServer(
  health: HealthService,
  metrics: PrometheusMetrics,
  port: number,
  host: string,
): Promise<Server> {
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown, contentType = 'application/json') => {
      res.writeHead(status, { 'Content-Type': contentType });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    const path = (req.url ?? '/').split('?')[0];
    const answer = async () => {
      if (req.method !== 'GET') return reply(405, { detail: 'Method Not Allowed' });
      switch (path) {
        case '/api/v1/health/live':
          return reply(200, { status: 'ok' });
        case '/api/v1/health': {
          const { ok } = await health.database();
          return ok ? reply(200, { status: 'ok' }) : reply(503, { detail: 'Service Unavailable' });
        }
        case '/api/v1/health/ready': {
          const { ok, result } = await health.ready();
          return reply(ok ? 200 : 503, result);
        }
        case '/metrics': {
          const { contentType, body } = await metrics.render();
          return reply(200, body, contentType);
        }
        default:
          return reply(404, { detail: 'Not Found' });
      }
    };
    answer().catch(() => reply(500, { detail: 'Internal Server Error' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
