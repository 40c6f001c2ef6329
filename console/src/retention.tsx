import { useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, fieldErrors, type Schemas, type ValidationItem } from './api.js';
import { FieldErrors, Notice, usePoll } from './ui.js';

type Policy = Schemas['OrganizationRetentionResponseDto'];
const PARTS = ['transcripts', 'recordings', 'input_data', 'messages', 'finished_targets'] as const;
type Part = (typeof PARTS)[number];
const PART_NAMES: Record<Part, string> = {
  transcripts: 'Transcripts and call summaries',
  recordings: 'Recording links',
  input_data: 'Input data and patient fields',
  messages: 'Text message bodies',
  finished_targets: 'The target itself (numbers, external id)',
};

/**
 * A 422's errors by field, a window's (`["body", "windows", "transcripts"]`) under its part, so each is
 * shown at its own input rather than once for all the windows.
 */
function policyErrors(error: unknown): Record<string, string[]> {
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  if (!Array.isArray(detail)) return fieldErrors(error).fields;
  return fieldErrors({
    detail: (detail as ValidationItem[]).map((d) =>
      d.loc[1] === 'windows' && d.loc.length > 2 ? { ...d, loc: ['body', ...d.loc.slice(2)] } : d,
    ),
  }).fields;
}

/** A window as typed: empty keeps (null), a number as such, anything else as typed (the service's 422 names it). */
function windowValue(typed: string): number | string | null {
  const text = typed.trim();
  if (text === '') return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

/**
 * The organization's retention policy: for each part of a patient's data, the days it is kept after
 * the target's last call (empty: kept), what that window removes, and redaction before storage.
 */
export function RetentionPage({ client }: { client: CampaignCallingClient }) {
  const [draft, setDraft] = useState<Record<Part, string> | null>(null);
  const [redact, setRedact] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saved, setSaved] = useState<string | null>(null);
  const policy = usePoll(
    async () => {
      const { data, error, response } = await client.GET('/api/v1/compliance/retention');
      if (!data) throw new Error(errorText(error, response.status));
      return data as Policy;
    },
    [],
    60_000,
  );
  const current = policy.value;
  const values =
    draft ??
    (current
      ? (Object.fromEntries(
          PARTS.map((p) => [p, current.windows[p] == null ? '' : String(current.windows[p])]),
        ) as Record<Part, string>)
      : null);
  const save = async (ev: Event) => {
    ev.preventDefault();
    if (!values) return;
    const windows = Object.fromEntries(
      PARTS.map((p) => [p, windowValue(values[p])]),
    ) as Policy['windows'];
    const { data, error, response } = await client.PUT('/api/v1/compliance/retention', {
      body: { windows, redact_transcripts: draft ? redact : current!.redact_transcripts },
    });
    if (data) {
      setErrors({});
      setDraft(null);
      setSaved('Saved: the next purge applies it.');
      policy.reload();
    } else {
      setSaved(null);
      setErrors(response.status === 422 ? policyErrors(error) : { form: [errorText(error)] });
    }
  };
  return (
    <section aria-labelledby="retention-h">
      <h1 id="retention-h">Data retention</h1>
      {policy.error ? <Notice kind="error">{policy.error}</Notice> : null}
      {current && values ? (
        <form onSubmit={save} noValidate>
          <p>
            Days after a target's last call (its creation when never called) until each part is
            removed, everywhere the service copied it. Empty keeps it. Statuses, categories, dates,
            counts and the do-not-call list are always kept.
          </p>
          {PARTS.map((p) => (
            <div class="field" key={p}>
              <label for={`window-${p}`}>{PART_NAMES[p]} (days)</label>
              <input
                id={`window-${p}`}
                inputMode="numeric"
                value={values[p]}
                aria-invalid={errors[p] ? true : undefined}
                aria-describedby={
                  errors[p] ? `window-${p}-removes window-${p}-error` : `window-${p}-removes`
                }
                onInput={(ev) => {
                  setDraft({ ...values, [p]: (ev.target as HTMLInputElement).value });
                  if (!draft) setRedact(current.redact_transcripts);
                }}
              />
              <p class="muted" id={`window-${p}-removes`}>
                Removes {current.removes[p]}.
              </p>
              <FieldErrors id={`window-${p}-error`} errors={errors[p]} />
            </div>
          ))}
          <div class="field">
            <label>
              <input
                type="checkbox"
                checked={draft ? redact : current.redact_transcripts}
                onChange={(ev) => {
                  setDraft(values);
                  setRedact((ev.target as HTMLInputElement).checked);
                }}
              />{' '}
              Redact transcripts, summaries and inbound texts before they are stored (the original
              is not kept)
            </label>
          </div>
          {errors.form ? <Notice kind="error">{errors.form.join(' ')}</Notice> : null}
          {saved ? <Notice kind="ok">{saved}</Notice> : null}
          <div class="buttons">
            <button type="submit">Save the policy</button>
          </div>
        </form>
      ) : null}
    </section>
  );
}
