import { useMay } from './permissions.js';
import { useEffect, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, sessionHeaders, fieldErrors, when, type Schemas } from './api.js';
import { CountrySelect } from './country-select.js';
import { TargetLink } from './target-link.js';
import { ZoneSelect } from './zone-select.js';
import { decisionReasonWords, decisionWords, ruleWords } from './words.js';
import { FieldErrors, Notice, Pager, usePoll } from './ui.js';

type Policy = Schemas['CompliancePolicyResponseDto'];
type Decision = Schemas['ComplianceDecisionResponseDto'];

const PAGE = 50;

interface Form {
  quietOn: boolean;
  start: string;
  end: string;
  stateRules: boolean;
  per24h: string;
  per7d: string;
  dates: string;
  zone: string;
  country: string;
}

const formOf = (p: Policy): Form => ({
  quietOn: p.quiet_hours !== null,
  start: p.quiet_hours?.start ?? '08:00',
  end: p.quiet_hours?.end ?? '21:00',
  stateRules: p.state_rules,
  per24h: p.max_calls_per_number.per_24h?.toString() ?? '',
  per7d: p.max_calls_per_number.per_7d?.toString() ?? '',
  dates: p.restricted_dates.map((d) => `${d.date} ${d.reason}`).join('\n'),
  zone: p.default_time_zone,
  country: p.default_country ?? '',
});

/** Empty is "no limit"; anything else goes as typed (the API says what is wrong with it). */
const cap = (text: string) =>
  text.trim() === '' ? null : /^\d+$/.test(text.trim()) ? Number(text.trim()) : text;

/** One restricted date a line: `2026-12-25 Christmas Day`. */
const datesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [date, ...reason] = line.split(/\s+/);
      return { date, reason: reason.join(' ') };
    });

/**
 * The organization's calling rules: its policy (quiet hours in the recipient's zones, state rules,
 * caps per number across campaigns, restricted dates), the state rules in force with their
 * citations, and every decision the rules made (docs/compliance.md).
 */
export function CompliancePage({ client }: { client: CampaignCallingClient }) {
  const mayChange = useMay('compliance.write');
  const [policy, setPolicy] = useState<Policy | null>(null);
  const [form, setForm] = useState<Form | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [page, setPage] = useState(0);

  useEffect(() => {
    void client.GET('/api/v1/compliance/policy').then(({ data, error, response }) => {
      if (data) {
        setPolicy(data);
        setForm(formOf(data));
      } else setLoadError(errorText(error, response.status));
    });
  }, [client]);

  const decisions = usePoll(
    async () => {
      const { data, error, response } = await client.GET('/api/v1/compliance/decisions', {
        params: { query: { limit: PAGE, skip: page * PAGE } },
      });
      if (!data) throw new Error(errorText(error, response.status));
      return data;
    },
    [page],
    10000,
  );

  if (loadError) return <Notice kind="error">Could not load the policy: {loadError}</Notice>;
  if (!policy || !form) return <p>Loading…</p>;

  const set = (patch: Partial<Form>) => {
    setForm({ ...form, ...patch });
    setSaved(false);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaved(false);
    const body = {
      quiet_hours: form.quietOn ? { start: form.start, end: form.end } : null,
      state_rules: form.stateRules,
      max_calls_per_number: { per_24h: cap(form.per24h), per_7d: cap(form.per7d) },
      restricted_dates: datesOf(form.dates),
      default_time_zone: form.zone.trim(),
      default_country: form.country || undefined,
    } as Schemas['CompliancePolicyDto'];
    const { data, error } = await client.PUT('/api/v1/compliance/policy', { body });
    setBusy(false);
    if (data) {
      setPolicy(data);
      setForm(formOf(data));
      setErrors({});
      setFormError([]);
      setSaved(true);
    } else {
      const { fields, other } = fieldErrors(error);
      setErrors(fields);
      setFormError(other);
    }
  };

  const downloadCsv = async () => {
    const res = await fetch('/api/v1/compliance/decisions', {
      headers: { Accept: 'text/csv', ...sessionHeaders() },
    });
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = 'compliance-decisions.csv';
    a.click();
    URL.revokeObjectURL(url);
  };

  const invalid = (name: string) => (errors[name]?.length ? true : undefined);
  const pageCount = decisions.value ? Math.ceil(decisions.value.total / PAGE) : 0;
  return (
    <>
      <h1>Calling rules</h1>
      {policy.warnings.map((w) => (
        <Notice key={w} kind="error">
          {w}
        </Notice>
      ))}
      <form onSubmit={save} noValidate class="policy" aria-labelledby="policy-h">
        <h2 id="policy-h">Policy</h2>
        <fieldset>
          <legend>Quiet hours (in each of the recipient's time zones)</legend>
          <label>
            <input
              type="checkbox"
              checked={form.quietOn}
              onChange={(e) => set({ quietOn: (e.target as HTMLInputElement).checked })}
            />{' '}
            Call only between
          </label>{' '}
          <label>
            <span class="sr-only">Calls from</span>
            <input
              name="start"
              value={form.start}
              size={5}
              disabled={!form.quietOn}
              aria-invalid={invalid('quiet_hours')}
              onInput={(e) => set({ start: (e.target as HTMLInputElement).value })}
            />
          </label>{' '}
          and{' '}
          <label>
            <span class="sr-only">Calls until</span>
            <input
              name="end"
              value={form.end}
              size={5}
              disabled={!form.quietOn}
              aria-invalid={invalid('quiet_hours')}
              onInput={(e) => set({ end: (e.target as HTMLInputElement).value })}
            />
          </label>
          <FieldErrors id="quiet_hours-error" errors={errors.quiet_hours} />
        </fieldset>
        <label>
          <input
            type="checkbox"
            checked={form.stateRules}
            onChange={(e) => set({ stateRules: (e.target as HTMLInputElement).checked })}
          />{' '}
          Apply the state rules (below)
        </label>
        <fieldset>
          <legend>Calls per number, across every campaign (empty: no limit)</legend>
          <label>
            In 24 hours{' '}
            <input
              name="per_24h"
              value={form.per24h}
              size={4}
              inputMode="numeric"
              aria-invalid={invalid('max_calls_per_number')}
              onInput={(e) => set({ per24h: (e.target as HTMLInputElement).value })}
            />
          </label>{' '}
          <label>
            In 7 days{' '}
            <input
              name="per_7d"
              value={form.per7d}
              size={4}
              inputMode="numeric"
              aria-invalid={invalid('max_calls_per_number')}
              onInput={(e) => set({ per7d: (e.target as HTMLInputElement).value })}
            />
          </label>
          <FieldErrors id="caps-error" errors={errors.max_calls_per_number} />
        </fieldset>
        <label for="dates">Restricted dates (one a line: 2026-12-25 Christmas Day)</label>
        <textarea
          id="dates"
          rows={4}
          value={form.dates}
          aria-invalid={invalid('restricted_dates')}
          onInput={(e) => set({ dates: (e.target as HTMLTextAreaElement).value })}
        />
        <FieldErrors id="dates-error" errors={errors.restricted_dates} />
        <div class="field">
          <label for="zone">Time zone of numbers whose zone is unknown</label>
          <ZoneSelect
            id="zone"
            value={form.zone}
            invalid={invalid('default_time_zone')}
            describedBy={errors.default_time_zone?.length ? 'zone-error' : undefined}
            onValue={(zone) => set({ zone })}
          />
          <FieldErrors id="zone-error" errors={errors.default_time_zone} />
        </div>
        <div class="field">
          <label for="country">Country of phone numbers written without +</label>
          <CountrySelect
            id="country"
            value={form.country}
            invalid={invalid('default_country')}
            describedBy={`country-help${errors.default_country?.length ? ' country-error' : ''}`}
            onValue={(country) => set({ country })}
          />
          <p class="muted help" id="country-help">
            A number written without + and a country code, such as (617) 253-1217 or 617-253-1217,
            is read as a number of this country and stored as +16172531217 (for the United States):
            in imports, targets added through the API and the do-not-call list. A campaign may have
            its own in its settings.
          </p>
          <FieldErrors id="country-error" errors={errors.default_country} />
        </div>
        {formError.length ? <Notice kind="error">{formError.join('; ')}</Notice> : null}
        {saved ? (
          <Notice kind="ok">Saved: the next call of every campaign follows it.</Notice>
        ) : null}
        {mayChange ? (
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : 'Save policy'}
          </button>
        ) : (
          <p class="muted">Only an admin changes the calling rules.</p>
        )}
      </form>

      <section aria-labelledby="rules-h">
        <h2 id="rules-h">State rules in force (version {policy.state_rule_pack.version})</h2>
        <p class="muted">{policy.state_rule_pack.scope}</p>
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">State</th>
              <th scope="col">Hours</th>
              <th scope="col">Calls in 24 h</th>
              <th scope="col">Since</th>
              <th scope="col">Citation</th>
            </tr>
          </thead>
          <tbody>
            {policy.state_rule_pack.rules.map((r) => (
              <tr key={r.id} data-state-rule={r.id}>
                <td data-label="State">{r.name}</td>
                <td data-label="Hours">{r.hours}</td>
                <td data-label="Calls in 24 h">{r.max_calls_per_24h ?? '—'}</td>
                <td data-label="Since">{r.effective}</td>
                <td data-label="Citation">
                  <a href={r.citation.url} rel="noreferrer noopener" target="_blank">
                    {r.citation.text}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section aria-labelledby="decisions-h">
        <h2 id="decisions-h">Decisions</h2>
        <p>
          Every call a rule deferred or refused, oldest first.{' '}
          <button type="button" onClick={() => void downloadCsv()}>
            Download CSV
          </button>
        </p>
        {decisions.error ? <Notice kind="error">{decisions.error}</Notice> : null}
        {decisions.value && decisions.value.total === 0 ? (
          <p class="muted">No decisions yet.</p>
        ) : null}
        {decisions.value && decisions.value.total > 0 ? (
          <>
            <table class="stack" aria-label="Decisions">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Rule</th>
                  <th scope="col">What happened</th>
                  <th scope="col">Why</th>
                  <th scope="col">Who</th>
                </tr>
              </thead>
              <tbody>
                {decisions.value.decisions.map((d: Decision) => (
                  <tr key={d.id} data-decision={d.rule}>
                    <td data-label="When">{when(d.decided_at)}</td>
                    <td data-label="Rule">
                      <span title={d.rule}>{ruleWords(d.rule)}</span>
                    </td>
                    <td data-label="What happened">
                      <span title={d.action}>{decisionWords(d.action, d.deferred_until)}</span>
                    </td>
                    <td data-label="Why">
                      <span title={d.reason}>{decisionReasonWords(d.reason)}</span>
                    </td>
                    <td data-label="Who">
                      <TargetLink client={client} id={d.target_id} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <Pager page={page} pageCount={pageCount} onPage={setPage} label="Decisions pages" />
          </>
        ) : null}
      </section>
    </>
  );
}
