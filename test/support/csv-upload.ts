import { setFlagsFromString } from 'v8';
import { runInNewContext } from 'vm';
import { request as httpRequest } from 'http';
import { AddressInfo } from 'net';
import { Readable } from 'stream';
import { TestApp } from './test-app.js';

/** A CSV produced as it is read: the test never holds the file either. */
export function csvRows(rows: number): Readable {
  let i = 0;
  return new Readable({
    read() {
      if (i === 0) this.push('phone_number,external_id,patient.first_name,visit\n');
      let chunk = '';
      for (let k = 0; k < 1000 && i < rows; k++, i++) {
        chunk += `+1555${String(1000000 + i).padStart(7, '0')},EXT-${i},Name ${i},2026-04-01\n`;
      }
      this.push(chunk || null);
      if (i >= rows && chunk) this.push(null);
    },
  });
}

export async function streamToString(stream: Readable): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

/** POSTs a stream (chunked) to the app on an ephemeral port. */
export async function streamUpload(
  t: TestApp,
  apiKey: string,
  campaignId: string,
  body: Readable,
): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  const port = await listen(t);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v1/campaigns/${campaignId}/targets/import`,
        headers: { 'Content-Type': 'text/csv', 'X-API-Key': apiKey },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    body.pipe(req);
  });
}

/** `global.gc` without starting node with --expose-gc. */
export function exposeGc(): () => void {
  setFlagsFromString('--expose_gc');
  return runInNewContext('gc') as () => void;
}

/** The app on an ephemeral port, for clients that are not supertest. */
export async function listen(t: TestApp): Promise<number> {
  const server = t.app.getHttpServer();
  if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}
