import { stringify } from 'csv-stringify/sync';
import type { Response } from 'express';

/** Whether the request asks for CSV (`Accept: text/csv`) rather than JSON. */
export const wantsCsv = (accept: string | undefined) => /\btext\/csv\b/.test(accept ?? '');

/** A CSV download: its file name, its header line, and the line of each item. */
export interface CsvFile<T> {
  filename: string;
  header: readonly string[];
  line: (item: T) => unknown[];
}

/** Answers `file` as an attachment: the header line, then each batch's lines as it arrives. */
export async function sendCsv<T>(
  res: Response,
  file: CsvFile<T>,
  batches: AsyncIterable<T[]>,
): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
  res.write(stringify([[...file.header]]));
  for await (const batch of batches) res.write(stringify(batch.map((item) => file.line(item))));
  res.end();
}
