/**
 * A small HTTP load loop, run as a child process by the benchmarks (so the load does not share the
 * served process's event loop): CONNECTIONS keep-alive connections, each sending the next GET as soon
 * as the last answer is read, for SECONDS. Sends {requests, errors, seconds} to the parent.
 *
 * Started with fork() and a message {base, paths, headers, connections, seconds}.
 */
import { Agent, request } from 'http';

interface LoadOrder {
  base: string;
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
}

function get(agent: Agent, url: URL, path: string, headers: Record<string, string>) {
  return new Promise<number>((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path, agent, headers, method: 'GET' },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function run(order: LoadOrder): Promise<LoadResult> {
  const url = new URL(order.base);
  const agent = new Agent({ keepAlive: true, maxSockets: order.connections });
  let requests = 0;
  let errors = 0;
  let next = 0;
  const start = performance.now();
  const end = start + order.seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const path = order.paths[next++ % order.paths.length];
      const status = await get(agent, url, path, order.headers).catch(() => 0);
      if (status === 200) requests++;
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: order.connections }, loop));
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  return { requests, errors, seconds };
}

process.once('message', (order: LoadOrder) => {
  run(order).then(
    (result) => process.send!(result, () => process.exit(0)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
});
