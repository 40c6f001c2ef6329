import { useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, sessionHeaders, when, type Schemas } from './api.js';
import { Notice, Pager, usePoll } from './ui.js';

type AuditEvent = Schemas['AuditEventResponseDto'];
type Chain = Schemas['AuditChainResponseDto'];
const PAGE_SIZE = 50;

/** The filters as the API names them; only those filled in are sent. */
interface Filters {
  actor_id: string;
  action: string;
  resource_type: string;
  resource_id: string;
  campaign_id: string;
  from: string;
  to: string;
}
const NO_FILTERS: Filters = {
  actor_id: '',
  action: '',
  resource_type: '',
  resource_id: '',
  campaign_id: '',
  from: '',
  to: '',
};
const FILTER_LABELS: [keyof Filters, string, string][] = [
  ['action', 'Action', 'target.read'],
  ['actor_id', 'Actor id', 'an API key id'],
  ['resource_type', 'Resource type', 'target'],
  ['resource_id', 'Resource id', ''],
  ['campaign_id', 'Campaign id', ''],
  ['from', 'From', 'YYYY-MM-DD'],
  ['to', 'To', 'YYYY-MM-DD'],
];

const given = (f: Filters) =>
  Object.fromEntries(Object.entries(f).filter(([, v]) => v.trim() !== '')) as Partial<Filters>;

/**
 * The audit trail (admins): who read which patient and who changed what, oldest first, filtered and
 * paged; a CSV download of what the filters match; and whether the hash chain verifies. Loaded on
 * demand, never polled: every look at the trail is itself an audit event.
 */
export function AuditPage({ client }: { client: CampaignCallingClient }) {
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  const [applied, setApplied] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(0);
  const [chain, setChain] = useState<Chain | null>(null);
  const [chainError, setChainError] = useState<string | null>(null);
  const events = usePoll(
    async () => {
      const { data, error, response } = await client.GET('/api/v1/audit-events', {
        params: { query: { ...given(applied), page, limit: PAGE_SIZE } },
      });
      if (!data) throw new Error(errorText(error, response.status));
      return data;
    },
    [applied, page],
    0,
  );
  const verify = async () => {
    setChainError(null);
    const { data, error, response } = await client.GET('/api/v1/audit-events/verify');
    if (!data) setChainError(errorText(error, response.status));
    setChain(data ?? null);
  };
  const downloadCsv = async () => {
    const query = new URLSearchParams(given(applied) as Record<string, string>);
    const res = await fetch(`/api/v1/audit-events?${query}`, {
      headers: { Accept: 'text/csv', ...sessionHeaders() },
    });
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = 'audit-events.csv';
    a.click();
    URL.revokeObjectURL(url);
  };
  return (
    <>
      <h1>Audit trail</h1>
      <p class="muted">
        Every read of patient data, every change and every refusal, with who, when, from where and
        what. Events cannot be changed or removed, and each one's hash covers the one before.
      </p>
      <section aria-labelledby="chain-h">
        <h2 id="chain-h">Chain</h2>
        <button type="button" onClick={verify} data-audit-verify>
          Verify the chain
        </button>
        {chainError ? <Notice kind="error">{chainError}</Notice> : null}
        {chain ? (
          chain.valid ? (
            <Notice kind="ok">
              The chain verifies: {chain.events_checked} event
              {chain.events_checked === 1 ? '' : 's'} checked.
            </Notice>
          ) : (
            <Notice kind="error">
              The chain breaks at event {chain.first_mismatch?.seq} ({chain.first_mismatch?.id}):{' '}
              {chain.first_mismatch?.reason}. {chain.events_checked} event
              {chain.events_checked === 1 ? '' : 's'} before it verify.
            </Notice>
          )
        ) : null}
      </section>
      <section aria-labelledby="events-h">
        <h2 id="events-h">Events</h2>
        <form
          class="inline"
          role="search"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            setPage(0);
            setApplied(draft);
          }}
        >
          {FILTER_LABELS.map(([name, label, placeholder]) => (
            <div class="field" key={name}>
              <label for={`audit-${name}`}>{label}</label>
              <input
                id={`audit-${name}`}
                value={draft[name]}
                placeholder={placeholder}
                onInput={(e) =>
                  setDraft({ ...draft, [name]: (e.target as HTMLInputElement).value })
                }
              />
            </div>
          ))}
          <button type="submit">Filter</button>
          <button type="button" onClick={downloadCsv}>
            Download CSV
          </button>
        </form>
        {events.error ? <Notice kind="error">{events.error}</Notice> : null}
        {!events.value ? (
          events.error ? null : (
            <p>Loading…</p>
          )
        ) : events.value.audit_events.length === 0 ? (
          <p class="muted" data-audit-empty>
            No event matches.
          </p>
        ) : (
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Audit events">
            <table data-audit-events>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">Action</th>
                  <th scope="col">Resource</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">From</th>
                  <th scope="col">Fields</th>
                </tr>
              </thead>
              <tbody>
                {events.value.audit_events.map((e) => (
                  <EventRow key={e.id} event={e} />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {events.value ? (
          <Pager
            page={page}
            pageCount={events.value.page_count}
            onPage={setPage}
            label="Audit event pages"
          />
        ) : null}
      </section>
    </>
  );
}

function EventRow({ event: e }: { event: AuditEvent }) {
  const listed = e.resource_ids.length;
  return (
    <tr data-audit-action={e.action}>
      <td>{e.seq}</td>
      <td>{when(e.occurred_at)}</td>
      <td>
        {/* A single sign-on by someone the service does not know: who the provider named, if anyone. */}
        {e.actor.name || e.actor.id || 'someone unknown'}{' '}
        <span class="muted">
          ({[e.actor.role, e.actor.kind.replace('_', ' ')].filter(Boolean).join(', ')})
        </span>
      </td>
      <td>
        <code>{e.action}</code>
      </td>
      <td>
        {e.resource_type}
        {e.resource_id ? ` ${e.resource_id}` : ''}
        {listed ? ` (${listed} listed)` : ''}
      </td>
      <td>{e.outcome}</td>
      <td>{e.client_address ?? ''}</td>
      <td>
        {e.changes
          ? Object.entries(e.changes)
              .map(([f, c]) => `${f}: ${changeWords(c)}`)
              .join('; ')
          : e.changed_fields.join(', ')}
      </td>
    </tr>
  );
}

/** `before → after` of one changed field that is not patient data. */
function changeWords(change: unknown): string {
  const { before, after } = (change ?? {}) as { before?: unknown; after?: unknown };
  return `${JSON.stringify(before ?? null)} → ${JSON.stringify(after ?? null)}`;
}
