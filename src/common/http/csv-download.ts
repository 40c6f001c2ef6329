import { stringify } from 'csv-stringify/sync';
import type { Response } from 'express';

/** Whether the request asks for CSV (`Accept: text/csv`) rather than JSON. */
export const wantsCsv = (accept: string | undefined) => /\btext\/csv\b/.test(accept ?? '');

/** Answers a CSV attachment: the header line, then each batch's lines as it arrives. */
export async function sendCsv<T>(
  res: Response,
  filename: string,
  header: readonly string[],
  batches: AsyncIterable<T[]>,
  line: (item: T) => unknown[],
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  res.write(stringify([[...header]]));
  for await (const batch of batches) res.write(stringify(batch.map((item) => line(item))));
  res.end();
}
