import { useEffect, useRef, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, type Schemas } from './api.js';
import { parseCsvHead } from './csv-head.js';
import { Notice } from './ui.js';
import { messageWords } from './words.js';

type Report = Schemas['ImportReportDto'];

const PREVIEW_ROWS = 5;
/** Only the file's beginning is read for the preview; the file itself is sent as the request body. */
const PREVIEW_BYTES = 64 * 1024;
const IMPORT_POLL_MS = 1000;
const RUNNING: readonly Report['status'][] = ['receiving', 'queued', 'running'];
const ERRORS_SHOWN = 200;

/**
 * CSV import on the campaign page: choose a file, preview its first rows (parsed here from the file's
 * beginning only), run a dry run whose bad rows are listed (row, column, message), then import for
 * real. Up to 10,000 rows the answer is the report (200); a larger file is queued (202) and its
 * progress is polled from `GET /api/v1/imports/{id}` into a progress bar.
 */
export function CsvImport({
  client,
  campaignId,
  disabled,
  onImported,
}: {
  client: CampaignCallingClient;
  campaignId: string;
  disabled: boolean;
  onImported: () => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string[][] | null>(null);
  const [launch, setLaunch] = useState(false);
  const [allowDuplicates, setAllowDuplicates] = useState(true);
  const [columns, setColumns] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const stopped = useRef(false);
  useEffect(
    () => () => {
      stopped.current = true;
    },
    [],
  );

  const choose = async (e: Event) => {
    const chosen = (e.target as HTMLInputElement).files?.[0] ?? null;
    setFile(chosen);
    setReport(null);
    setFailure(null);
    setPreview(null);
    if (!chosen) return;
    const head = await chosen.slice(0, PREVIEW_BYTES).text();
    setPreview(parseCsvHead(head, PREVIEW_ROWS + 1, chosen.size <= PREVIEW_BYTES));
  };

  const follow = async (started: Report) => {
    let current = started;
    setReport(current);
    while (RUNNING.includes(current.status) && !stopped.current) {
      await new Promise((r) => setTimeout(r, IMPORT_POLL_MS));
      const { data, error, response } = await client.GET('/api/v1/imports/{import_id}', {
        params: { path: { import_id: current.id } },
      });
      if (!data) {
        setFailure(`Could not read the import's progress: ${errorText(error, response.status)}`);
        return current;
      }
      current = data;
      setReport(current);
    }
    return current;
  };

  const send = async (dryRun: boolean) => {
    if (!file) return;
    setBusy(true);
    setFailure(null);
    setReport(null);
    try {
      const { data, error, response } = await client.POST(
        '/api/v1/campaigns/{campaign_id}/targets/import',
        {
          params: {
            path: { campaign_id: campaignId },
            query: {
              dry_run: dryRun,
              launch,
              allow_duplicates: allowDuplicates,
              columns: columns.trim() || undefined,
            },
          },
          // The file itself is the body (streamed by the browser), not text read here.
          body: file as unknown as string,
          bodySerializer: (body: unknown) => body as BodyInit,
          headers: { 'Content-Type': 'text/csv' },
        },
      );
      if (!data) {
        setFailure(errorText(error, response.status));
        return;
      }
      const final = await follow(data);
      if (!final.dry_run && final.status === 'succeeded') onImported();
    } catch {
      setFailure('The service could not be reached.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="import-h">
      <h2 id="import-h">Import targets from a CSV file</h2>
      <p class="muted">
        A header row, then one target a row: <code>phone_number</code> (required),{' '}
        <code>external_id</code>, <code>patient.first_name</code>, …; any other column goes into
        input data. A file with any bad row adds nothing: run a dry run first.
      </p>
      <div class="field">
        <label for="import-file">CSV file</label>
        <input
          id="import-file"
          type="file"
          accept=".csv,text/csv"
          disabled={busy || disabled}
          onChange={choose}
        />
      </div>
      {preview ? <Preview rows={preview} /> : null}
      <div class="inline">
        <div class="field check">
          <input
            id="import-launch"
            type="checkbox"
            checked={launch}
            onChange={(e) => setLaunch((e.target as HTMLInputElement).checked)}
          />
          <label for="import-launch">Schedule the new targets (launch)</label>
        </div>
        <div class="field check">
          <input
            id="import-dupes"
            type="checkbox"
            checked={allowDuplicates}
            onChange={(e) => setAllowDuplicates((e.target as HTMLInputElement).checked)}
          />
          <label for="import-dupes">Ignore duplicate external ids (else they are errors)</label>
        </div>
        <div class="field">
          <label for="import-columns">Column mapping (optional)</label>
          <input
            id="import-columns"
            type="text"
            placeholder="Phone:phone_number,MRN:external_id"
            spellcheck={false}
            value={columns}
            onInput={(e) => setColumns((e.target as HTMLInputElement).value)}
          />
        </div>
      </div>
      <div class="buttons">
        <button
          type="button"
          class="secondary"
          disabled={!file || busy || disabled}
          onClick={() => send(true)}
        >
          Dry run
        </button>
        <button type="button" disabled={!file || busy || disabled} onClick={() => send(false)}>
          Import
        </button>
      </div>
      {disabled ? <p class="muted">A cancelled campaign takes no new targets.</p> : null}
      {failure ? <Notice kind="error">Could not import: {failure}</Notice> : null}
      {report ? <ImportReport report={report} /> : null}
    </section>
  );
}

function Preview({ rows }: { rows: string[][] }) {
  if (rows.length === 0) return <p class="muted">The file is empty.</p>;
  const [header, ...data] = rows;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="File preview">
      <table>
        <caption>
          Preview: the header and the first {data.length} row{data.length === 1 ? '' : 's'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            {header.map((h, i) => (
              <th scope="col" key={i}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.map((r, i) => (
            <tr key={i}>
              <td>{i + 2}</td>
              {header.map((_, j) => (
                <td key={j}>{r[j] ?? ''}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ImportReport({ report: r }: { report: Report }) {
  const running = RUNNING.includes(r.status);
  const what = r.dry_run ? 'Dry run' : 'Import';
  let summary: string;
  if (running) summary = `${what} ${r.status}: ${r.processed_rows} of ${r.rows || '?'} rows.`;
  else if (r.status === 'rejected')
    summary = `${what}: ${r.invalid_rows} of ${r.rows} rows have errors, so nothing ${r.dry_run ? 'would be' : 'was'} added.`;
  else if (r.status === 'failed') summary = `${what} failed.`;
  else if (r.dry_run)
    // A dry run adds nothing (`created` is 0): the valid rows not ignored as duplicates would be added.
    summary = `Dry run: all ${r.rows} rows are valid; ${r.rows - r.ignored_rows} target${r.rows - r.ignored_rows === 1 ? '' : 's'} would be added${r.ignored_rows ? `, ${r.ignored_rows} duplicate${r.ignored_rows === 1 ? '' : 's'} ignored` : ''}.`;
  else
    summary = `Imported: ${r.created} target${r.created === 1 ? '' : 's'} added${r.ignored_rows ? `, ${r.ignored_rows} duplicate${r.ignored_rows === 1 ? '' : 's'} ignored` : ''}.`;
  const bad = r.status === 'rejected' || r.status === 'failed';
  return (
    <div class="import-report" data-import-status={r.status}>
      {running || (!r.dry_run && r.status === 'succeeded') ? (
        <div class="field">
          <label for="import-progress">Import progress</label>
          <progress
            id="import-progress"
            max={Math.max(r.rows, 1)}
            value={running ? r.processed_rows : Math.max(r.rows, 1)}
          >
            {r.processed_rows} / {r.rows}
          </progress>
        </div>
      ) : null}
      <Notice kind={bad ? 'error' : running ? 'info' : 'ok'}>{summary}</Notice>
      {r.errors.length ? (
        <div class="table-wrap" tabIndex={0} role="region" aria-label="Rows with errors">
          <table>
            <caption>
              Rows with errors
              {r.errors.length > ERRORS_SHOWN ? ` (the first ${ERRORS_SHOWN})` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Column</th>
                <th scope="col">Message</th>
              </tr>
            </thead>
            <tbody>
              {r.errors.slice(0, ERRORS_SHOWN).map((e, i) => (
                <tr key={i} data-row={e.row}>
                  <td>{e.row}</td>
                  <td>{e.column ?? '(whole row)'}</td>
                  <td>{messageWords(e.msg)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}
