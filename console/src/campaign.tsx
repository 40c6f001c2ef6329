import { useMay } from './permissions.js';
import { targetName } from './patient.js';
import { useRef, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import {
  errorText,
  readCampaign,
  TARGET_STATUSES,
  when,
  type Campaign,
  type Schemas,
  type TargetStatus,
} from './api.js';
import { href } from './app.js';
import { CsvImport } from './import.js';
import { takeCreatedSecret } from './new-campaign.js';
import { loadProgress, type Progress } from './progress.js';
import {
  CodeWords,
  FieldErrors,
  localToIso,
  Notice,
  Pager,
  ProgressBar,
  StateBadge,
  StatusBadge,
  StatusCounts,
  usePoll,
} from './ui.js';
import { heldWords, messageWords } from './words.js';

/**
 * One campaign: its state with pause/resume/cancel, progress and counts (from the stats endpoint),
 * trigger calls, and the targets table with the API's filters.
 */
export function CampaignPage({ client, id }: { client: CampaignCallingClient; id: string }) {
  const mayWrite = useMay('campaigns.write');
  const mayControl = useMay('campaigns.control');
  const mayTrigger = useMay('calls.trigger');
  const mayImport = useMay('targets.import');
  const campaign = usePoll(() => readCampaign(client, id), [id], 0);
  // One stats request every 2 s: 30 a minute, far within the default rate limit (600 a minute per key).
  const progress = usePoll(() => loadProgress(client, id), [id], PROGRESS_POLL_MS);
  // Just created on the new-campaign page: its webhook secret, which the API shows on creation only.
  const [createdSecret] = useState(() => takeCreatedSecret(id));
  if (campaign.error)
    return <Notice kind="error">Could not load the campaign: {campaign.error}</Notice>;
  if (!campaign.value) return <p>Loading…</p>;
  const c = campaign.value;
  // The campaign read says the state; each stats refresh says it again (another operator, the CLI):
  // the newer of the two wins.
  const stats = progress.value?.stats;
  const state =
    stats && (!c.state_changed_at || stats.as_of >= c.state_changed_at) ? stats.state : c.state;
  const changed = () => {
    campaign.reload();
    progress.reload();
  };
  return (
    <>
      <p class="crumbs">
        <a href={href.campaigns()}>Campaigns</a> /
      </p>
      <h1>
        {c.name} <StateBadge state={state} />
      </h1>
      {createdSecret ? (
        <Notice kind="ok">
          <p>Campaign created.</p>
          <p>
            Its webhook secret, shown this once (keep it to verify the notifications' signatures):{' '}
            <code data-webhook-secret>{createdSecret}</code>
          </p>
        </Notice>
      ) : null}
      <nav class="subnav" aria-label="Campaign">
        <a href={href.campaign(id)} aria-current="page">
          Overview
        </a>
        {mayWrite ? <a href={href.settings(id)}>Settings</a> : null}
        <a href={href.webhooks(id)}>Webhooks</a>
      </nav>
      <section aria-labelledby="progress-h">
        <h2 id="progress-h">Progress</h2>
        <ProgressBar progress={progress.value} label="Campaign progress" />
        <StatusCounts progress={progress.value} />
        <StatsDetails progress={progress.value} />
      </section>
      {mayControl ? (
        <CampaignControl client={client} id={id} state={state} onChange={changed} />
      ) : null}
      {mayTrigger ? (
        <CampaignActions client={client} id={id} state={state} onChange={progress.reload} />
      ) : null}
      {mayImport ? (
        <CsvImport
          client={client}
          campaignId={id}
          disabled={state === 'cancelled'}
          onImported={progress.reload}
        />
      ) : null}
      <TargetsTable client={client} campaignId={id} progress={progress.value} />
    </>
  );
}

const PROGRESS_POLL_MS = 2000;

function seconds(s: number | null | undefined): string {
  if (s === null || s === undefined) return '—';
  const r = Math.round(s);
  return r < 60 ? `${r} s` : `${Math.floor(r / 60)} min ${r % 60} s`;
}

/** Calls in flight, connect rate, average call length, estimated end, and counts by category. */
function StatsDetails({ progress }: { progress: Progress | null }) {
  if (!progress) return null;
  const s = progress.stats;
  const categories = Object.entries(s.targets.by_category);
  const resolutions = Object.entries(s.targets.by_resolution);
  const item = (key: string, label: string, value: string | number) => (
    <div>
      <dt>{label}</dt>
      <dd data-stat={key}>{value}</dd>
    </div>
  );
  return (
    <>
      <dl class="counts stats" aria-label="Calls">
        {item('calls_in_flight', 'Calls in flight', s.calls_in_flight)}
        {item('attempts', 'Call attempts', s.attempts)}
        {item(
          'connect_rate',
          'Connect rate',
          s.connect_rate === null ? '—' : `${Math.round(s.connect_rate * 1000) / 10}%`,
        )}
        {item('average_call_seconds', 'Average call', seconds(s.average_call_seconds))}
        {item('due_now', 'Due now', s.due_now)}
        {item('due_later', 'Due later', s.due_later)}
        <div>
          <dt>Estimated end</dt>
          <dd data-stat="estimated_completion_at">
            {s.estimated_completion_at ? when(s.estimated_completion_at) : '—'}
          </dd>
          {s.estimate_held_until ? (
            <dd class="held" data-stat="estimate_held_until">
              {heldWords(when(s.estimate_held_until), s.estimate_held_by_rule)}
            </dd>
          ) : null}
        </div>
      </dl>
      {categories.length || resolutions.length ? (
        <div class="by-category">
          {categories.length ? (
            <>
              <h3 id="by-category-h">By category</h3>
              <dl class="counts" aria-labelledby="by-category-h">
                {categories.map(([k, n]) => (
                  <div key={k}>
                    <dt>
                      <CodeWords code={k} />
                    </dt>
                    <dd data-category={k}>{n}</dd>
                  </div>
                ))}
              </dl>
            </>
          ) : null}
          {resolutions.length ? (
            <>
              <h3 id="by-resolution-h">By resolution</h3>
              <dl class="counts" aria-labelledby="by-resolution-h">
                {resolutions.map(([k, n]) => (
                  <div key={k}>
                    <dt>
                      <CodeWords code={k} />
                    </dt>
                    <dd data-resolution={k}>{n}</dd>
                  </div>
                ))}
              </dl>
            </>
          ) : null}
        </div>
      ) : null}
      <p class="muted">As of {when(s.as_of)}.</p>
    </>
  );
}

type CampaignState = Campaign['state'];
type Control = 'pause' | 'resume' | 'cancel';

const CONFLICT: Record<Control, string> = {
  pause: 'This campaign is cancelled, so it cannot be paused: a cancel is final.',
  resume: 'This campaign is cancelled, so it cannot be resumed: a cancel is final.',
  cancel: 'The service refused the cancel.',
};

/**
 * Pause, resume and cancel, each enabled only where the state allows it. Cancel is final, so it asks
 * first in a modal <dialog> (keyboard: Esc or "Keep the campaign" closes it). A 409 (the campaign was
 * cancelled meanwhile, e.g. by another operator) is explained and the state re-read.
 */
function CampaignControl({
  client,
  id,
  state,
  onChange,
}: {
  client: CampaignCallingClient;
  id: string;
  state: CampaignState;
  onChange: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const act = async (action: Control) => {
    dialog.current?.close();
    setBusy(true);
    setFailure(null);
    setDone(null);
    const path = `/api/v1/campaigns/{campaign_id}/${action}` as const;
    const { data, error, response } = await client.POST(path, {
      params: { path: { campaign_id: id } },
    });
    setBusy(false);
    if (data) setDone(`Campaign ${data.state === 'active' ? 'resumed' : data.state}.`);
    else if (response.status === 409)
      setFailure(`${CONFLICT[action]} (${errorText(error, response.status)})`);
    else setFailure(errorText(error, response.status));
    onChange();
  };
  return (
    <section aria-labelledby="state-h">
      <h2 id="state-h">State</h2>
      <p>
        This campaign is <StateBadge state={state} />
        {state === 'paused'
          ? ': no call starts; calls in flight end normally, triggered targets wait.'
          : state === 'cancelled'
            ? ': final, no call ever starts again.'
            : ': calls are placed.'}
      </p>
      <div class="buttons">
        <button type="button" disabled={busy || state !== 'active'} onClick={() => act('pause')}>
          Pause
        </button>
        <button type="button" disabled={busy || state !== 'paused'} onClick={() => act('resume')}>
          Resume
        </button>
        <button
          type="button"
          class="danger"
          disabled={busy || state === 'cancelled'}
          onClick={() => dialog.current?.showModal()}
        >
          Cancel campaign…
        </button>
      </div>
      {failure ? <Notice kind="error">{failure}</Notice> : null}
      {done ? <Notice kind="ok">{done}</Notice> : null}
      <dialog ref={dialog} aria-labelledby="cancel-h" aria-describedby="cancel-d">
        <h2 id="cancel-h">Cancel this campaign?</h2>
        <p id="cancel-d">
          Cancelling is final: no call ever starts again, and every Pending, Scheduled and Waiting
          target ends Finished with the outcome “Campaign cancelled”. Calls in flight end normally.
        </p>
        <div class="buttons">
          <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
            Keep the campaign
          </button>
          <button type="button" class="danger" onClick={() => act('cancel')}>
            Yes, cancel the campaign
          </button>
        </div>
      </dialog>
    </section>
  );
}

function CampaignActions({
  client,
  id,
  state,
  onChange,
}: {
  client: CampaignCallingClient;
  id: string;
  state: CampaignState;
  onChange: () => void;
}) {
  const [count, setCount] = useState('10');
  const [oldest, setOldest] = useState(true);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [result, setResult] = useState<Schemas['TriggerCallsResponseDto'] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const trigger = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setFailure(null);
    setResult(null);
    const n = Number(count);
    const { data, error, response } = await client.POST('/api/v1/campaigns/{campaign_id}/calls', {
      params: { path: { campaign_id: id } },
      body: {
        count: Number.isInteger(n) ? n : (count as unknown as number),
        prioritize_oldest: oldest,
      },
    });
    setBusy(false);
    if (data) {
      setResult(data);
      onChange();
    } else if (response.status === 422) {
      const items = (error as Schemas['HTTPValidationError']).detail ?? [];
      setErrors({ count: items.map((d) => messageWords(d.msg)) });
    } else setFailure(errorText(error, response.status));
  };
  return (
    <section aria-labelledby="actions-h">
      <h2 id="actions-h">Calls</h2>
      <form class="inline" onSubmit={trigger} noValidate>
        <div class="field">
          <label for="trigger-count">Targets to call</label>
          <input
            id="trigger-count"
            type="number"
            min={1}
            inputMode="numeric"
            value={count}
            aria-invalid={errors.count ? true : undefined}
            aria-describedby={errors.count ? 'trigger-count-error' : undefined}
            onInput={(e) => setCount((e.target as HTMLInputElement).value)}
          />
          <FieldErrors id="trigger-count-error" errors={errors.count} />
        </div>
        <div class="field check">
          <input
            id="trigger-oldest"
            type="checkbox"
            checked={oldest}
            onChange={(e) => setOldest((e.target as HTMLInputElement).checked)}
          />
          <label for="trigger-oldest">Oldest first</label>
        </div>
        <button type="submit" disabled={busy || state === 'cancelled'}>
          Trigger calls
        </button>
      </form>
      {state === 'paused' ? (
        <p class="muted">Paused: triggered targets are scheduled and wait for a resume.</p>
      ) : null}
      {failure ? <Notice kind="error">Could not trigger calls: {failure}</Notice> : null}
      {result ? (
        <Notice kind="ok">
          {result.scheduled.length} call{result.scheduled.length === 1 ? '' : 's'} scheduled
          {result.skipped.length ? `, ${result.skipped.length} skipped` : ''}.
        </Notice>
      ) : null}
    </section>
  );
}

interface Filters {
  status: '' | TargetStatus;
  search: string;
  from_date: string;
  to_date: string;
  from_last_call_date: string;
  to_last_call_date: string;
}
const NO_FILTERS: Filters = {
  status: '',
  search: '',
  from_date: '',
  to_date: '',
  from_last_call_date: '',
  to_last_call_date: '',
};

function TargetsTable({
  client,
  campaignId,
  progress,
}: {
  client: CampaignCallingClient;
  campaignId: string;
  progress: Progress | null;
}) {
  // Filters live in the page's state, never in the URL.
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(0);
  const [limit, setLimit] = useState(25);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const targets = usePoll(
    async () => {
      const { data, error, response } = await client.GET(
        '/api/v1/campaigns/{campaign_id}/targets',
        {
          params: {
            path: { campaign_id: campaignId },
            query: {
              page,
              limit,
              status: filters.status || undefined,
              search: filters.search.trim() || undefined,
              from_date: localToIso(filters.from_date),
              to_date: localToIso(filters.to_date),
              from_last_call_date: localToIso(filters.from_last_call_date),
              to_last_call_date: localToIso(filters.to_last_call_date),
            },
          },
        },
      );
      if (response.status === 422) {
        const items = (error as Schemas['HTTPValidationError']).detail ?? [];
        const byField: Record<string, string[]> = {};
        for (const d of items) (byField[String(d.loc[1])] ??= []).push(messageWords(d.msg));
        setErrors(byField);
        return null;
      }
      if (!data) throw new Error(errorText(error, response.status));
      setErrors({});
      return data;
    },
    [campaignId, filters, page, limit, progress?.total, progress?.done],
    0,
  );
  const set = (k: keyof Filters) => (e: Event) =>
    setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value });
  const dateField = (k: keyof Filters, label: string) => (
    <div class="field">
      <label for={`f-${k}`}>{label}</label>
      <input
        id={`f-${k}`}
        type="datetime-local"
        value={draft[k]}
        aria-invalid={errors[k] ? true : undefined}
        aria-describedby={errors[k] ? `f-${k}-error` : undefined}
        onInput={set(k)}
      />
      <FieldErrors id={`f-${k}-error`} errors={errors[k]} />
    </div>
  );
  const rows = targets.value?.targets ?? [];
  return (
    <section aria-labelledby="targets-h">
      <h2 id="targets-h">Targets</h2>
      <form
        class="filters"
        aria-label="Filter targets"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(0);
          setFilters(draft);
        }}
      >
        <div class="field">
          <label for="f-status">Status</label>
          <select id="f-status" value={draft.status} onChange={set('status')}>
            <option value="">Any</option>
            {TARGET_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-search">Find a patient</label>
          <input
            id="f-search"
            type="search"
            placeholder="Name, MRN or phone"
            value={draft.search}
            aria-invalid={errors.search ? true : undefined}
            aria-describedby={errors.search ? 'f-search-error' : undefined}
            onInput={set('search')}
          />
          <FieldErrors id="f-search-error" errors={errors.search} />
        </div>
        {dateField('from_date', 'Created from')}
        {dateField('to_date', 'Created to')}
        {dateField('from_last_call_date', 'Last call from')}
        {dateField('to_last_call_date', 'Last call to')}
        <div class="field">
          <label for="f-limit">Per page</label>
          <select
            id="f-limit"
            value={String(limit)}
            onChange={(e) => {
              setPage(0);
              setLimit(Number((e.target as HTMLSelectElement).value));
            }}
          >
            {[10, 25, 50, 100].map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <div class="buttons">
          <button type="submit">Apply filters</button>
          <button
            type="button"
            class="secondary"
            onClick={() => {
              setDraft(NO_FILTERS);
              setFilters(NO_FILTERS);
              setPage(0);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      {targets.error ? (
        <Notice kind="error">Could not load the targets: {targets.error}</Notice>
      ) : null}
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Targets table">
        <table class="stack">
          <thead>
            <tr>
              <th scope="col">Patient</th>
              <th scope="col">MRN</th>
              <th scope="col">Phone</th>
              <th scope="col">Status</th>
              <th scope="col">Outcome</th>
              <th scope="col">Retries</th>
              <th scope="col">Last call</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <tr>
                <td colSpan={8} data-empty>
                  {!targets.value
                    ? 'Loading…'
                    : Object.values(filters).every((v) => v === '') && page === 0
                      ? 'No targets yet: import a CSV file above, or add them through the API.'
                      : 'No targets match these filters.'}
                </td>
              </tr>
            ) : (
              rows.map((t) => (
                <tr key={t.id} data-target-id={t.id}>
                  <td data-label="Patient">
                    <a href={href.target(t.id)}>{targetName(t)}</a>
                  </td>
                  <td data-label="MRN">{t.external_id ?? ''}</td>
                  <td data-label="Phone">{t.phone_number}</td>
                  <td data-label="Status">
                    <StatusBadge status={t.status} />
                  </td>
                  <td data-label="Outcome">{t.outcome ?? <CodeWords code={t.resolution} />}</td>
                  <td data-label="Retries">{t.retries}</td>
                  <td data-label="Last call">{when(t.last_call_date)}</td>
                  <td data-label="Created">{when(t.created_at)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {targets.value ? (
        <Pager
          page={page}
          pageCount={targets.value.page_count}
          onPage={setPage}
          label="Target pages"
        />
      ) : null}
    </section>
  );
}
