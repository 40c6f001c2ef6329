import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { TARGET_STATUSES } from './api.js';
import type { Progress } from './progress.js';
import { codeWords, statusSentence } from './words.js';

/** Runs `load` now and every `everyMs` while the page is shown (no reload; polling pauses when hidden). */
export function usePoll<T>(load: () => Promise<T>, deps: unknown[], everyMs = 3000) {
  const [value, setValue] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = async () => {
      let failed = false;
      if (document.visibilityState !== 'hidden') {
        try {
          const v = await latest.current();
          if (!stopped) {
            setValue(v);
            setError(null);
          }
        } catch (err) {
          failed = true;
          if (!stopped) setError(err instanceof Error ? err.message : String(err));
        }
      }
      // After a failure (the service down, or its per-key rate limit: 429) wait longer before asking again.
      if (!stopped && everyMs > 0)
        timer = setTimeout(run, failed ? Math.max(everyMs * 4, 15000) : everyMs);
    };
    void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [...deps, tick]);
  return { value, error, reload: () => setTick((t) => t + 1) };
}

const statusClass = (s: string) => `st-${s.toLowerCase().replace(/[^a-z]+/g, '-')}`;

/**
 * A form's submission: busy while it runs and one error line. `send` answers the error to show, or
 * null when it went through; a request that never reaches the service is said in words.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (send: () => Promise<string | null>) => {
    setBusy(true);
    setError(null);
    try {
      setError(await send());
    } catch {
      setError('The service could not be reached.');
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, setError, submit };
}

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      class={`badge ${statusClass(status)}`}
      title={statusSentence(status) === status ? status : `${statusSentence(status)} (${status})`}
    >
      {codeWords(status)}
    </span>
  );
}

/** An enum value of the API (a category, a resolution) in words, the value itself on hover. */
export function CodeWords({ code }: { code: string | null | undefined }) {
  if (code === null || code === undefined || code === '') return null;
  return (
    <span class="code-words" title={code} data-code={code}>
      {codeWords(code)}
    </span>
  );
}

/** A campaign's state (active, paused, cancelled), in words with its colour. */
export function StateBadge({ state }: { state: string }) {
  return (
    <span class={`badge state state-${state}`} data-state={state} title={state}>
      {codeWords(state)}
    </span>
  );
}

/** A stacked bar of the targets by status, with a text equivalent for screen readers. */
export function ProgressBar({ progress, label }: { progress: Progress | null; label: string }) {
  if (!progress) return <div class="bar bar-empty" role="img" aria-label={`${label}: loading`} />;
  const { counts, total, done } = progress;
  // "Done" is what needs nothing more: targets to review still need a person, so they are not done.
  const toReview = counts['To review'];
  const ended = done - toReview;
  const pct = total ? Math.round((ended / total) * 100) : 0;
  const summary = TARGET_STATUSES.filter((s) => counts[s] > 0)
    .map((s) => `${counts[s]} ${s}`)
    .join(', ');
  return (
    <div class="progress">
      <div
        class="bar"
        role="img"
        aria-label={`${label}: ${ended} of ${total} targets done (${pct}%)${toReview ? `, ${toReview} to review` : ''}${summary ? `; ${summary}` : ''}`}
        data-done={done}
        data-total={total}
      >
        {total === 0
          ? null
          : TARGET_STATUSES.filter((s) => counts[s] > 0).map((s) => (
              <span
                key={s}
                class={`seg ${statusClass(s)}`}
                style={{ width: `${(counts[s] / total) * 100}%` }}
                title={`${s}: ${counts[s]}`}
              />
            ))}
      </div>
      <div class="bar-text" aria-hidden="true">
        {total === 0
          ? 'No targets yet'
          : `${ended} of ${total} done (${pct}%)${toReview ? ` · ${toReview} to review` : ''}`}
      </div>
    </div>
  );
}

export function StatusCounts({ progress }: { progress: Progress | null }) {
  if (!progress) return <p>Loading counts…</p>;
  return (
    <dl class="counts" aria-label="Targets by status">
      <div>
        <dt>Total</dt>
        <dd data-status="total">{progress.total}</dd>
      </div>
      {TARGET_STATUSES.map((s) => (
        <div key={s}>
          <dt title={statusSentence(s)}>
            <span class={`dot ${statusClass(s)}`} aria-hidden="true" /> {s}
          </dt>
          <dd data-status={s}>{progress.counts[s]}</dd>
        </div>
      ))}
    </dl>
  );
}

export function FieldErrors({ id, errors }: { id: string; errors?: string[] }) {
  if (!errors?.length) return null;
  // The alert is the list's container: a list with role="alert" would no longer be a list.
  return (
    <div id={id} role="alert">
      <ul class="field-error">
        {errors.map((e) => (
          <li key={e}>{e}</li>
        ))}
      </ul>
    </div>
  );
}

export function Notice({
  kind,
  children,
}: {
  kind: 'error' | 'ok' | 'info';
  children: ComponentChildren;
}) {
  return (
    <div class={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function Pager({
  page,
  pageCount,
  onPage,
  label,
}: {
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
  label: string;
}) {
  // Nothing to page through: the list says it is empty itself, no "Page 0 of 0".
  if (pageCount <= 1 && page === 0) return null;
  return (
    <nav class="pager" aria-label={label}>
      <button type="button" disabled={page <= 0} onClick={() => onPage(page - 1)}>
        ← Previous
      </button>
      <span>
        Page {page + 1} of {Math.max(pageCount, page + 1)}
      </span>
      <button type="button" disabled={page + 1 >= pageCount} onClick={() => onPage(page + 1)}>
        Next →
      </button>
    </nav>
  );
}

export function Json({ value, label }: { value: unknown; label: string }) {
  const empty =
    value === null ||
    value === undefined ||
    (typeof value === 'object' && Object.keys(value as object).length === 0);
  if (empty) return <p class="muted">No {label.toLowerCase()}.</p>;
  return (
    <pre class="json" tabIndex={0} aria-label={label}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** `<input type="datetime-local">` value (local time) -> ISO-8601 UTC, or undefined when empty. */
export function localToIso(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}
