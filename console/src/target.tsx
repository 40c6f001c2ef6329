import { useMay } from './permissions.js';
import { targetDetails, targetName } from './patient.js';
import { useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import {
  errorText,
  fieldErrors,
  when,
  type CallLog,
  type Target,
  type TimelineEvent,
} from './api.js';
import { CampaignCrumbs } from './crumbs.js';
import { CodeWords, FieldErrors, Json, Notice, StatusBadge, usePoll } from './ui.js';
import { actorWords, callerWords, timelineWords, waitingWords } from './words.js';
import { useKeyNames } from './key-names.js';

const ZONE_SOURCE: Record<string, string> = {
  target: 'given with the target',
  phone_number: 'from the phone number',
  organization_default: 'zone unknown: the organization default',
};

/** Each of the recipient's zones with its wall time now: calls wait until every one allows them. */
function RecipientTime({ zones, source }: { zones: string[]; source: string }) {
  const now = new Date();
  return (
    <span data-recipient-zones>
      {zones
        .map(
          (zone) =>
            `${new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', weekday: 'short' }).format(now)} in ${zone}`,
        )
        .join(', ')}{' '}
      <span class="muted">({ZONE_SOURCE[source] ?? source})</span>
    </span>
  );
}

export function TargetPage({ client, id }: { client: CampaignCallingClient; id: string }) {
  const target = usePoll(
    async () => {
      const { data, error, response } = await client.GET('/api/v1/targets/{target_id}', {
        params: { path: { target_id: id } },
      });
      if (!data) throw new Error(errorText(error, response.status));
      return data;
    },
    [id],
    5000,
  );
  if (target.error && !target.value)
    return <Notice kind="error">Could not load the target: {target.error}</Notice>;
  if (!target.value) return <p>Loading…</p>;
  const t = target.value;
  const facts: [string, unknown][] = [
    ['Status', <StatusBadge status={t.status} />],
    ['Date of birth', t.patient?.date_of_birth],
    ['MRN', t.external_id],
    ['Phone number', t.phone_number],
    ['Recipient time', <RecipientTime zones={t.time_zones} source={t.time_zone_source} />],
    ['Area', t.region],
    ['Outcome', t.outcome],
    ['Resolution', t.resolution && <CodeWords code={t.resolution} />],
    ['Category', t.category && <CodeWords code={t.category} />],
    ['Subcategory', t.subcategory && <CodeWords code={t.subcategory} />],
    ['Retries', t.retries],
    ['Scheduled for', when(t.scheduled_time)],
    ['Last call', when(t.last_call_date)],
    ['Execution minutes', t.execution_minutes],
    ['Created', when(t.created_at)],
    ['Updated', when(t.updated_at)],
    ['Id', <code>{t.id}</code>],
  ];
  return (
    <>
      <CampaignCrumbs client={client} campaignId={t.campaign_id} />
      <h1>{targetName(t)}</h1>
      <p class="muted" data-target-details>
        {targetDetails(t)}
      </p>
      <dl class="facts">
        {facts.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v === null || v === undefined || v === '' ? '—' : (v as string)}</dd>
          </div>
        ))}
      </dl>
      {t.waiting_reason ? (
        <p class="notice notice-info waiting" data-waiting-reason>
          <strong>Not being called now:</strong>{' '}
          <span title={t.waiting_reason}>{waitingWords(t.waiting_reason)}</span>
        </p>
      ) : null}
      <div class="two">
        <section aria-labelledby="input-h">
          <h2 id="input-h">Input data</h2>
          <Json value={t.input_data} label="Input data" />
          <InputEditor client={client} target={t} onSaved={target.reload} />
        </section>
        <section aria-labelledby="output-h">
          <h2 id="output-h">Output data</h2>
          <Json value={t.output_data} label="Output data" />
        </section>
      </div>
      <Timeline client={client} id={t.id} version={`${t.updated_at}|${t.status}`} />
      <Messages client={client} id={t.id} />
      <section aria-labelledby="calls-h">
        <h2 id="calls-h">Calls</h2>
        {(t.call_log_ids ?? []).length === 0 ? (
          <p class="muted">No call yet.</p>
        ) : (
          [...(t.call_log_ids ?? [])]
            .reverse()
            .map((logId) => <CallLogView key={logId} client={client} id={logId} />)
        )}
      </section>
    </>
  );
}

/**
 * Merges the JSON typed here into the target's input data (the API's PATCH is a shallow merge).
 * By default only while no call has started: the API answers 409 once it has, which is explained, with
 * the choice to edit anyway.
 */
function InputEditor({
  client,
  target,
  onSaved,
}: {
  client: CampaignCallingClient;
  target: Target;
  onSaved: () => void;
}) {
  const mayEdit = useMay('targets.write');
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string[] | undefined>();
  const [conflict, setConflict] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const send = async (onlyIfNotStarted: boolean) => {
    setSaved(false);
    setError(undefined);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      setError([`Not valid JSON: ${(err as Error).message}`]);
      return;
    }
    const {
      data,
      error: err,
      response,
    } = await client.PATCH('/api/v1/targets/{target_id}', {
      params: { path: { target_id: target.id } },
      body: { input_data: value as Record<string, never>, only_if_not_started: onlyIfNotStarted },
    });
    if (data) {
      setConflict(null);
      setSaved(true);
      setOpen(false);
      onSaved();
    } else if (response.status === 409) {
      setConflict(errorText(err, 409));
    } else if (response.status === 422) {
      const { fields, other } = fieldErrors(err);
      setError([...(fields.input_data ?? []), ...Object.values(fields).flat(), ...other]);
    } else setError([errorText(err, response.status)]);
  };
  if (!mayEdit) return null;
  if (!open) {
    return (
      <>
        {saved ? <Notice kind="ok">Input data saved.</Notice> : null}
        <button
          type="button"
          onClick={() => {
            setText(JSON.stringify(target.input_data ?? {}, null, 2));
            setConflict(null);
            setOpen(true);
          }}
        >
          Edit input data
        </button>
      </>
    );
  }
  return (
    <form
      class="editor"
      onSubmit={(e) => {
        e.preventDefault();
        void send(true);
      }}
      noValidate
    >
      <label for="input-data">Input data to merge (JSON object)</label>
      <textarea
        id="input-data"
        rows={8}
        spellcheck={false}
        value={text}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? 'input-data-error' : 'input-data-help'}
        onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
      />
      <p class="muted help" id="input-data-help">
        Keys given here replace the target’s keys of the same name; others are kept.
      </p>
      <FieldErrors id="input-data-error" errors={error} />
      {conflict ? (
        <div class="notice notice-error" role="alert" data-conflict="true">
          <p>
            <strong>Not saved: this target’s call has already started</strong> (status{' '}
            {target.status}). Input data is what a call works from, so by default it can only be
            changed while the target is still Pending or Scheduled; a change now would not reach the
            call in progress or already made.
          </p>
          <p class="muted">The service said: {conflict}</p>
          <button type="button" class="secondary" onClick={() => void send(false)}>
            Save anyway (for later attempts and the record)
          </button>
        </div>
      ) : null}
      <div class="buttons">
        <button type="submit">Save input data</button>
        <button type="button" class="secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

const SPEAKERS: Record<string, string> = {
  assistant: 'Agent',
  agent: 'Agent',
  bot: 'Agent',
  user: 'Callee',
  customer: 'Callee',
  human: 'Callee',
};

function CallLogView({ client, id }: { client: CampaignCallingClient; id: number }) {
  const log = usePoll(
    async () => {
      const { data, error, response } = await client.GET('/api/v1/call-logs/{call_log_id}', {
        params: { path: { call_log_id: id }, query: { include_recordings: true } },
      });
      if (!data) throw new Error(errorText(error, response.status));
      return data;
    },
    [id],
    0,
  );
  if (log.error)
    return (
      <Notice kind="error">
        Call {id}: {log.error}
      </Notice>
    );
  if (!log.value) return <p>Loading call {id}…</p>;
  const l: CallLog = log.value;
  return (
    <article class="call" aria-labelledby={`call-${id}-h`} data-call-log-id={id}>
      <h3 id={`call-${id}-h`}>
        Call {l.id} · {when(l.created_at)}
      </h3>
      <p class="muted">
        {callerWords(l.from_)}to {l.to} · {l.call_length || '0'} · ended:{' '}
        {l.call_ended_reason || '—'}
      </p>
      <h4>Transcript</h4>
      {(l.transcripts ?? []).length === 0 ? (
        <p class="muted">No transcript.</p>
      ) : (
        <ol class="transcript" aria-label={`Transcript of call ${l.id}`}>
          {(l.transcripts ?? []).map((turn, i) => {
            const role = (turn.role ?? turn.speaker ?? '').toLowerCase();
            const who = SPEAKERS[role] ?? (role || 'Unknown');
            const side = who === 'Agent' ? 'agent' : 'callee';
            return (
              <li key={i} class={`turn ${side}`}>
                <span class="who">{who}</span>
                <p>{turn.message ?? turn.text ?? turn.content ?? ''}</p>
              </li>
            );
          })}
        </ol>
      )}
      <h4>Recordings</h4>
      {recordingLinks(l.recording_urls).length === 0 ? (
        <p class="muted">No recording.</p>
      ) : (
        <ul>
          {recordingLinks(l.recording_urls).map((u, i) => (
            <li key={u}>
              <a href={u} target="_blank" rel="noopener noreferrer">
                Recording {i + 1}
              </a>
            </li>
          ))}
        </ul>
      )}
      <details>
        <summary>Post-call data, QA and categorization</summary>
        <Json value={l.post_call_data} label="Post-call data" />
        <Json value={l.qa} label="QA" />
        <Json value={l.call_categorization} label="Categorization" />
      </details>
    </article>
  );
}

const MESSAGE_STATUS_WORDS: Record<string, string> = {
  queued: 'queued',
  sent: 'sent',
  delivered: 'delivered',
  undelivered: 'not delivered',
  failed: 'failed',
  received: 'received',
};

/**
 * The target's texts as a conversation (`GET /targets/{id}/messages`): the follow-up texts sent after
 * its calls and the replies, oldest first; read again every five seconds.
 */
function Messages({ client, id }: { client: CampaignCallingClient; id: string }) {
  const messages = usePoll(
    async () => {
      const { data, error, response } = await client.GET('/api/v1/targets/{target_id}/messages', {
        params: { path: { target_id: id } },
      });
      if (!data) throw new Error(errorText(error, response.status));
      return data.messages;
    },
    [id],
    5000,
  );
  return (
    <section aria-labelledby="messages-h">
      <h2 id="messages-h">Texts</h2>
      {messages.error ? (
        <Notice kind="error">Could not load the texts: {messages.error}</Notice>
      ) : null}
      {messages.value && messages.value.length === 0 ? <p class="muted">No text yet.</p> : null}
      {messages.value && messages.value.length > 0 ? (
        <ol class="transcript" aria-label="Texts">
          {messages.value.map((m) => (
            <li
              key={m.id}
              class={`turn ${m.direction === 'outbound' ? 'agent' : 'callee'}`}
              data-message-id={m.id}
            >
              <span class="who">{m.direction === 'outbound' ? 'Sent' : 'Reply'}</span>
              <p>{m.body}</p>
              <p class="muted">
                {when(m.settled_at ?? m.sent_at ?? m.created_at)} ·{' '}
                {MESSAGE_STATUS_WORDS[m.status] ?? m.status}
                {m.error_code
                  ? ` (${m.error_code}${m.error_message ? `: ${m.error_message}` : ''})`
                  : ''}
                {m.send_after ? ` · held until ${when(m.send_after)}` : ''}
                {m.keyword === 'opt_out'
                  ? ' · opted out: the number is on the do-not-call list'
                  : ''}
                {m.keyword === 'opt_in' ? ' · opted in again (texts)' : ''}
                {m.keyword === 'help' ? ' · asked for help' : ''}
              </p>
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}

const TIMELINE_PAGE = 20;

/**
 * The target's timeline (`GET /targets/{id}/events`), newest first: read again whenever the target
 * changes (`version`), older events on demand with the API's next_cursor.
 */
function Timeline({
  client,
  id,
  version,
}: {
  client: CampaignCallingClient;
  id: string;
  version: string;
}) {
  const page = async (cursor?: string) => {
    const { data, error, response } = await client.GET('/api/v1/targets/{target_id}/events', {
      params: {
        path: { target_id: id },
        query: { limit: TIMELINE_PAGE, ...(cursor ? { cursor } : {}) },
      },
    });
    if (!data) throw new Error(errorText(error, response.status));
    return data;
  };
  const first = usePoll(() => page(), [id, version], 0);
  const keyNames = useKeyNames(client);
  // Older pages belong to the read of the first page they continue; a new read starts over.
  const [older, setOlder] = useState<{
    of: unknown;
    items: TimelineEvent[];
    cursor: string | null;
  }>({ of: null, items: [], cursor: null });
  const [moreError, setMoreError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const current = older.of === first.value && first.value !== null ? older : null;
  const items = [...(first.value?.items ?? []), ...(current?.items ?? [])];
  const cursor = current ? current.cursor : (first.value?.next_cursor ?? null);
  const loadMore = async () => {
    if (!cursor) return;
    setLoading(true);
    setMoreError(null);
    try {
      const next = await page(cursor);
      setOlder({
        of: first.value,
        items: [...(current?.items ?? []), ...next.items],
        cursor: next.next_cursor,
      });
    } catch (err) {
      setMoreError((err as Error).message);
    } finally {
      setLoading(false);
    }
  };
  return (
    <section aria-labelledby="timeline-h">
      <h2 id="timeline-h">Timeline</h2>
      {first.error ? (
        <Notice kind="error">Could not load the timeline: {first.error}</Notice>
      ) : null}
      {!first.value && !first.error ? <p>Loading…</p> : null}
      {first.value && items.length === 0 ? <p class="muted">No events yet.</p> : null}
      {items.length ? (
        <ol class="timeline" aria-label="Events, newest first">
          {items.map((e) => (
            <li key={e.id} data-kind={e.kind}>
              <p class="timeline-head">
                <time dateTime={e.at}>{when(e.at)}</time> · <strong>{timelineWords(e)}</strong>
                {e.status ? (
                  <>
                    {' '}
                    → <StatusBadge status={e.status} />
                  </>
                ) : null}
              </p>
              <p class="muted timeline-detail">
                Detail for support:{' '}
                <span class="timeline-reason" title={e.kind}>
                  {e.reason}
                </span>
              </p>
              <p class="muted timeline-actor">by {actorWords(e.actor, keyNames)}</p>
            </li>
          ))}
        </ol>
      ) : null}
      {moreError ? <Notice kind="error">Could not load older events: {moreError}</Notice> : null}
      {cursor ? (
        <button type="button" class="secondary" disabled={loading} onClick={loadMore}>
          {loading ? 'Loading…' : 'Older events'}
        </button>
      ) : null}
    </section>
  );
}

/**
 * Only http(s) URLs become links: the service stores no other, and a `javascript:` URL in a link
 * would run in the operator's session if one ever got through.
 */
function recordingLinks(urls: readonly string[] | null | undefined): string[] {
  return (urls ?? []).filter((u) => {
    try {
      const { protocol, hostname } = new URL(u);
      // A `.invalid` host never resolves (RFC 2606): the simulator's recordings, a link to nothing.
      return (protocol === 'https:' || protocol === 'http:') && !hostname.endsWith('.invalid');
    } catch {
      return false;
    }
  });
}
