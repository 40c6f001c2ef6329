import { createReadStream, statSync } from 'fs';
import { Readable, Transform } from 'stream';
import type { ImportReportDto } from './modules/target/api/dto/import-targets.dto.js';

/** The fields of the import report (`GET /api/v1/imports/{id}`) the progress display reads. */
type ImportReportBody = Pick<
  ImportReportDto,
  'id' | 'status' | 'rows' | 'invalid_rows' | 'processed_rows' | 'created' | 'ignored_rows'
>;

/** What `targets:import` needs: where the service is, the key, the campaign, the file, the options. */
export interface ImportCommand {
  url: string;
  apiKey: string;
  campaignId: string;
  file: string;
  query: Record<string, string>;
  /** Progress lines (stderr). */
  progress: (line: string) => void;
  pollMs?: number;
}

/**
 * `cli targets:import`: streams the file to `POST /api/v1/campaigns/{id}/targets/import` (the service
 * does the work; the CLI never holds the file) showing the upload's progress, then follows a queued
 * import with `GET /api/v1/imports/{id}` until it ends. Returns the final report.
 */
export async function importTargetsFile(
  command: ImportCommand,
): Promise<{ status: number; body: unknown }> {
  const size = statSync(command.file).size;
  let sent = 0;
  let lastShown = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      sent += chunk.length;
      if (Date.now() - lastShown > 500 || sent === size) {
        lastShown = Date.now();
        command.progress(`uploading: ${percent(sent, size)} (${mb(sent)} of ${mb(size)} MB)`);
      }
      done(null, chunk);
    },
  });
  const base = command.url.replace(/\/+$/, '');
  const query = new URLSearchParams(command.query).toString();
  const headers = { 'X-API-Key': command.apiKey };
  const res = await fetch(
    `${base}/api/v1/campaigns/${encodeURIComponent(command.campaignId)}/targets/import${query ? `?${query}` : ''}`,
    {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'text/csv' },
      body: Readable.toWeb(createReadStream(command.file).pipe(counter)) as ReadableStream,
      duplex: 'half',
    } as RequestInit,
  );
  let body = (await res.json()) as ImportReportBody;
  if (res.status !== 202) return { status: res.status, body };

  command.progress(`queued as import ${body.id}`);
  while (body.status === 'queued' || body.status === 'running') {
    await new Promise((r) => setTimeout(r, command.pollMs ?? 1000));
    const poll = await fetch(`${base}/api/v1/imports/${body.id}`, { headers });
    if (poll.status !== 200) return { status: poll.status, body: await poll.json() };
    body = (await poll.json()) as ImportReportBody;
    const todo = body.rows - body.invalid_rows;
    command.progress(
      `importing: ${body.processed_rows} of ${todo} rows (${percent(body.processed_rows, todo)}), ` +
        `${body.created} created, ${body.ignored_rows} ignored`,
    );
  }
  return { status: 200, body };
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '100%' : `${Math.floor((part / whole) * 100)}%`;
}

function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(1);
}
