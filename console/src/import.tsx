import { useEffect, useRef, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, sessionHeaders, type Schemas } from './api.js';
import { fieldChoices } from './csv-head.js';
import { patientName } from './patient.js';
import { Notice } from './ui.js';
import { messageWords } from './words.js';

type Report = Schemas['ImportReportDto'];
type Column = Schemas['ImportColumnDto'];

const IMPORT_POLL_MS = 1000;
const RUNNING: readonly Report['status'][] = ['receiving', 'queued', 'running'];
const ERRORS_SHOWN = 200;
/** Up to this size a changed column choice checks the file again at once (a dry run). */
const RECHECK_BYTES = 2 * 1024 * 1024;

/**
 * CSV import on the campaign page. Choosing a file runs a dry run: the service answers how it reads
 * each column (it recognises the headers EHR exports use), the first rows as they will be stored and
 * the rows with errors. Each column has a drop-down of our fields; a change checks the file again.
 * The import sends the mapping shown. When the dry run found bad rows, the coordinator may choose to
 * add the good rows and skip the bad ones (on_error=skip), and download the errors as CSV to fix.
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
  const [columns, setColumns] = useState<Column[] | null>(null);
  const [launch, setLaunch] = useState(false);
  const [allowDuplicates, setAllowDuplicates] = useState(true);
  const [skipBad, setSkipBad] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [report, setReport] = useState<Report | null>(null);
  const [checked, setChecked] = useState<Report | null>(null);
  const stopped = useRef(false);
  useEffect(
    () => () => {
      stopped.current = true;
    },
    [],
  );

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

  /** Every column's choice, as the `columns` parameter (the service's proposal sent back as is). */
  const mappingOf = (chosen: Column[] | null) =>
    chosen?.map((c) => `${c.column}:${c.field}`).join(',') || undefined;

  const send = async (dryRun: boolean, target = file, chosen = columns) => {
    if (!target) return;
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
              on_error: !dryRun && skipBad ? 'skip' : 'reject',
              columns: mappingOf(chosen),
            },
          },
          // The file itself is the body (streamed by the browser), not text read here.
          body: target as unknown as string,
          bodySerializer: (body: unknown) => body as BodyInit,
          headers: { 'Content-Type': 'text/csv' },
        },
      );
      if (!data) {
        setFailure(errorText(error, response.status));
        return;
      }
      const final = await follow(data);
      if (final.columns) setColumns(final.columns);
      if (dryRun) setChecked(final);
      if (!final.dry_run && final.status === 'succeeded') onImported();
    } catch {
      setFailure('The service could not be reached.');
    } finally {
      setBusy(false);
    }
  };

  const choose = (e: Event) => {
    const chosen = (e.target as HTMLInputElement).files?.[0] ?? null;
    setFile(chosen);
    setReport(null);
    setChecked(null);
    setFailure(null);
    setColumns(null);
    setSkipBad(false);
    // The service proposes the mapping: a dry run without one.
    if (chosen) void send(true, chosen, null);
  };

  const remap = (index: number, field: string) => {
    if (!columns) return;
    const next = columns.map((c, i): Column =>
      i === index ? { ...c, field, source: 'explicit' } : c,
    );
    setColumns(next);
    setChecked(null);
    if (file && file.size <= RECHECK_BYTES) void send(true, file, next);
  };

  const badRows = checked?.invalid_rows ?? 0;
  return (
    <section aria-labelledby="import-h">
      <h2 id="import-h">Import patients from a CSV file</h2>
      <p class="muted">
        A file as your EHR exports it, with a header row: phone, MRN, first and last name, date of
        birth, … Choose it to see how each column will be read and the first rows as they will be
        stored; nothing is added until you press Import. Numbers written without +, such as (617)
        253-1217, are read in the campaign's country (its settings; else the organization's, on the
        Calling rules page).
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
      {columns ? <ColumnChoices columns={columns} disabled={busy} onChange={remap} /> : null}
      {checked?.preview?.length ? <StoredPreview rows={checked.preview} /> : null}
      <div class="inline">
        <div class="field check">
          <input
            id="import-launch"
            type="checkbox"
            checked={launch}
            onChange={(e) => setLaunch((e.target as HTMLInputElement).checked)}
          />
          <label for="import-launch">Start calling them once imported</label>
        </div>
        <div class="field check">
          <input
            id="import-dupes"
            type="checkbox"
            checked={allowDuplicates}
            onChange={(e) => setAllowDuplicates((e.target as HTMLInputElement).checked)}
          />
          <label for="import-dupes">
            Skip patients already in the campaign (same MRN or external id)
          </label>
        </div>
        {badRows > 0 ? (
          <div class="field check">
            <input
              id="import-skip-bad"
              type="checkbox"
              checked={skipBad}
              onChange={(e) => setSkipBad((e.target as HTMLInputElement).checked)}
            />
            <label for="import-skip-bad">
              Import the good rows and skip the {badRows} row{badRows === 1 ? '' : 's'} with errors
            </label>
          </div>
        ) : null}
      </div>
      <div class="buttons">
        <button
          type="button"
          class="secondary"
          disabled={!file || busy || disabled}
          onClick={() => send(true)}
        >
          Check the file again
        </button>
        <button
          type="button"
          disabled={!file || busy || disabled || (badRows > 0 && !skipBad)}
          onClick={() => send(false)}
        >
          Import
        </button>
      </div>
      {badRows > 0 && !skipBad ? (
        <p class="muted">
          Fix the rows with errors and choose the file again, or skip them to import the rest.
        </p>
      ) : null}
      {disabled ? <p class="muted">A cancelled campaign takes no new patients.</p> : null}
      {failure ? <Notice kind="error">Could not import: {failure}</Notice> : null}
      {report ? <ImportReport report={report} /> : null}
    </section>
  );
}

/** Each column of the file and the field it feeds, to change with a drop-down. */
function ColumnChoices({
  columns,
  disabled,
  onChange,
}: {
  columns: Column[];
  disabled: boolean;
  onChange: (index: number, field: string) => void;
}) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Columns of the file">
      <table>
        <caption>How each column of the file is read</caption>
        <thead>
          <tr>
            <th scope="col">Column in the file</th>
            <th scope="col">Read as</th>
          </tr>
        </thead>
        <tbody>
          {columns.map((c, i) => (
            <tr key={c.column} data-column={c.column}>
              <th scope="row">
                <label for={`map-${i}`}>{c.column}</label>
              </th>
              <td>
                <select
                  id={`map-${i}`}
                  value={c.field}
                  disabled={disabled}
                  onChange={(e) => onChange(i, (e.target as HTMLSelectElement).value)}
                >
                  {fieldChoices(c.column, c.field).map((choice) => (
                    <option key={choice.field} value={choice.field}>
                      {choice.label}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The first good rows as the service will store them: numbers in E.164, dates as YYYY-MM-DD. */
function StoredPreview({ rows }: { rows: NonNullable<Report['preview']> }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label="Preview of the import">
      <table class="stack">
        <caption>
          The first {rows.length} row{rows.length === 1 ? '' : 's'} as they will be stored
        </caption>
        <thead>
          <tr>
            <th scope="col">Row</th>
            <th scope="col">Patient</th>
            <th scope="col">Date of birth</th>
            <th scope="col">MRN</th>
            <th scope="col">Phone</th>
            <th scope="col">Fallback phone</th>
            <th scope="col">Other columns</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.row} data-row={r.row}>
              <td data-label="Row">{r.row}</td>
              <td data-label="Patient">{patientName(r.patient) ?? '(no name)'}</td>
              <td data-label="Date of birth">{r.patient?.date_of_birth ?? ''}</td>
              <td data-label="MRN">{r.external_id ?? ''}</td>
              <td data-label="Phone">{r.phone_number}</td>
              <td data-label="Fallback phone">{r.fallback_phone_number ?? ''}</td>
              <td data-label="Other columns">
                {Object.entries(r.input_data)
                  .map(([k, v]) => `${k}: ${String(v)}`)
                  .join('; ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The value an error is about, as read from the file. */
function valueOf(e: Report['errors'][number]): string {
  if (e.type === 'missing' || e.input === undefined || e.input === null) return '';
  return typeof e.input === 'string' ? e.input : JSON.stringify(e.input);
}

async function downloadErrors(importId: string) {
  const res = await fetch(`/api/v1/imports/${importId}/errors`, {
    headers: { ...sessionHeaders() },
  });
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = `import-errors-${importId}.csv`;
  a.click();
  URL.revokeObjectURL(url);
}

function ImportReport({ report: r }: { report: Report }) {
  const running = RUNNING.includes(r.status);
  const what = r.dry_run ? 'Check' : 'Import';
  const skipping = r.on_error === 'skip';
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const dupes = r.ignored_rows ? `, ${plural(r.ignored_rows, 'duplicate')} skipped` : '';
  let summary: string;
  if (running) summary = `${what} under way: ${r.processed_rows} of ${r.rows || '?'} rows.`;
  else if (r.status === 'rejected')
    summary = `${what}: ${r.invalid_rows} of ${r.rows} rows have errors, so nothing ${r.dry_run ? 'would be' : 'was'} added.`;
  else if (r.status === 'failed') summary = `${what} failed.`;
  else if (r.dry_run)
    // A dry run adds nothing (`created` is 0): the valid rows not ignored as duplicates would be added.
    summary = `Check: all ${r.rows} rows are valid; ${plural(r.rows - r.ignored_rows, 'patient')} would be added${dupes}.`;
  else
    summary = `Imported: ${plural(r.created, 'patient')} added${dupes}${skipping && r.invalid_rows ? `, ${plural(r.invalid_rows, 'row')} with errors skipped` : ''}.`;
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
        <>
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Rows with errors">
            <table class="stack">
              <caption>
                Rows with errors
                {r.errors.length > ERRORS_SHOWN ? ` (the first ${ERRORS_SHOWN})` : ''}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Column</th>
                  <th scope="col">Value</th>
                  <th scope="col">Problem</th>
                </tr>
              </thead>
              <tbody>
                {r.errors.slice(0, ERRORS_SHOWN).map((e, i) => (
                  <tr key={i} data-row={e.row}>
                    <td data-label="Row">{e.row}</td>
                    <td data-label="Column">{e.column ?? '(whole row)'}</td>
                    <td data-label="Value">{valueOf(e)}</td>
                    <td data-label="Problem">{messageWords(e.msg)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div class="buttons">
            <button type="button" class="secondary" onClick={() => void downloadErrors(r.id)}>
              Download the errors (CSV)
            </button>
          </div>
        </>
      ) : null}
    </div>
  );
}
