import { useMay } from './permissions.js';
import { useRef, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, when, type Schemas, type ValidationItem } from './api.js';
import { FieldErrors, Notice, Pager, usePoll } from './ui.js';
import { TargetLink } from './target-link.js';
import { actorWords, messageWords } from './words.js';

type Entry = Schemas['DoNotCallEntryResponseDto'];
const PAGE_SIZE = 25;

/**
 * A 422's messages by the field they concern, for forms about one number: the last name in `loc`
 * (`["body", "phone_numbers", 0, "phone_number"]` -> `phone_number`, `["query", "phone_number"]`
 * -> `phone_number`); anything else is `other`.
 */
function errorsByField(error: unknown): { fields: Record<string, string[]>; other: string[] } {
  const fields: Record<string, string[]> = {};
  const other: string[] = [];
  const detail = (error as { detail?: unknown } | undefined)?.detail;
  if (!Array.isArray(detail)) return { fields, other: [errorText(error)] };
  for (const item of detail as ValidationItem[]) {
    const name = [...item.loc].reverse().find((p): p is string => typeof p === 'string');
    if (name && name !== 'body' && name !== 'query')
      (fields[name] ??= []).push(messageWords(item.msg));
    else other.push(`${item.loc.join('.')}: ${messageWords(item.msg)}`);
  }
  return { fields, other };
}

/**
 * The organization's do-not-call list: numbers none of its campaigns dials. Search (the digits a number
 * contains; kept in the page, never in the address), add a number with the reason, remove one with the
 * reason consent was given again (asked in a dialog), and the history of removals.
 */
export function DoNotCallPage({ client }: { client: CampaignCallingClient }) {
  const mayAdd = useMay('do_not_call.add');
  const [search, setSearch] = useState('');
  const [applied, setApplied] = useState('');
  const [history, setHistory] = useState(false);
  const [page, setPage] = useState(0);
  const [searchErrors, setSearchErrors] = useState<string[]>([]);
  const list = usePoll(
    async () => {
      const { data, error, response } = await client.GET('/api/v1/compliance/do-not-call', {
        params: {
          query: {
            limit: PAGE_SIZE,
            skip: page * PAGE_SIZE,
            phone_number: applied || undefined,
            include_removed: history,
          },
        },
      });
      if (response.status === 422) {
        setSearchErrors(errorsByField(error).fields.phone_number ?? [errorText(error, 422)]);
        return { phone_numbers: [], total: 0 };
      }
      if (!data) throw new Error(errorText(error, response.status));
      setSearchErrors([]);
      return data;
    },
    [applied, history, page],
    10000,
  );
  const pageCount = list.value ? Math.ceil(list.value.total / PAGE_SIZE) : 0;
  return (
    <>
      <h1>Do not call</h1>
      <p class="muted">
        Numbers no campaign of your organization dials, whatever its blacklists. A call in which the
        person asks not to be called again adds the number by itself, and so does a reply STOP to a
        text.
      </p>
      {mayAdd ? <AddNumber client={client} onAdded={list.reload} /> : null}
      <section aria-labelledby="dnc-list-h">
        <h2 id="dnc-list-h">Listed numbers</h2>
        <form
          class="inline"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            setPage(0);
            setApplied(search.trim());
          }}
          noValidate
        >
          <div class="field">
            <label for="dnc-search">Number contains</label>
            <input
              id="dnc-search"
              type="search"
              inputMode="tel"
              value={search}
              aria-invalid={searchErrors.length ? true : undefined}
              aria-describedby={searchErrors.length ? 'dnc-search-error' : undefined}
              onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
            />
            <FieldErrors id="dnc-search-error" errors={searchErrors} />
          </div>
          <div class="field check">
            <input
              id="dnc-history"
              type="checkbox"
              checked={history}
              onChange={(e) => {
                setPage(0);
                setHistory((e.target as HTMLInputElement).checked);
              }}
            />
            <label for="dnc-history">Show removed numbers too (history)</label>
          </div>
          <button type="submit">Search</button>
        </form>
        {list.error ? <Notice kind="error">Could not load the list: {list.error}</Notice> : null}
        {!list.value ? (
          <p>Loading…</p>
        ) : list.value.phone_numbers.length === 0 ? (
          <p class="muted" data-dnc-empty>
            {applied ? 'No listed number contains these digits.' : 'No number is listed.'}
          </p>
        ) : (
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Do-not-call numbers">
            <table class="stack" data-dnc-total={list.value.total}>
              <thead>
                <tr>
                  <th scope="col">Number</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Added by</th>
                  <th scope="col">Listed</th>
                  <th scope="col">Removal</th>
                </tr>
              </thead>
              <tbody>
                {list.value.phone_numbers.map((e) => (
                  <EntryRow
                    key={`${e.phone_number} ${e.created_at}`}
                    client={client}
                    entry={e}
                    onRemoved={list.reload}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
        {list.value ? (
          <>
            <p class="muted">
              {list.value.total} {history ? 'listing' : 'number'}
              {list.value.total === 1 ? '' : 's'}
              {applied ? ' matching' : ''}.
            </p>
            <Pager page={page} pageCount={pageCount} onPage={setPage} label="Do-not-call pages" />
          </>
        ) : null}
      </section>
    </>
  );
}

function Source({ client, source }: { client: CampaignCallingClient; source: Entry['source'] }) {
  if (source.type === 'call') {
    return (
      <span title={`call ${source.call_log_id}`}>
        <TargetLink client={client} id={source.target_id} phone={false} />, who asked on a call not
        to be called
      </span>
    );
  }
  if (source.type === 'sms') {
    return source.target_id ? (
      <>
        <TargetLink client={client} id={source.target_id} phone={false} />, who replied STOP to a
        text
      </>
    ) : (
      <>a reply STOP to a text</>
    );
  }
  const who = actorWords(source.added_by);
  return <>{who.charAt(0).toUpperCase() + who.slice(1)}</>;
}

function EntryRow({
  client,
  entry: e,
  onRemoved,
}: {
  client: CampaignCallingClient;
  entry: Entry;
  onRemoved: () => void;
}) {
  const mayRemove = useMay('do_not_call.remove');
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const removed = e.removed;
  const remove = async (ev: Event) => {
    ev.preventDefault();
    setBusy(true);
    setFailure(null);
    const { data, error, response } = await client.DELETE('/api/v1/compliance/do-not-call', {
      body: { phone_numbers: [e.phone_number], reason: reason.trim() },
    });
    setBusy(false);
    if (data) {
      dialog.current?.close();
      setErrors({});
      onRemoved();
    } else if (response.status === 422) {
      const { fields, other } = errorsByField(error);
      setErrors(fields);
      if (other.length) setFailure(other.join(' '));
    } else setFailure(errorText(error, response.status));
  };
  const id = `dnc-${e.phone_number.replace(/\D/g, '')}-${Date.parse(e.created_at)}`;
  return (
    <tr data-dnc-number={e.phone_number} data-dnc-removed={removed ? 'true' : 'false'}>
      <td data-label="Number">{e.phone_number}</td>
      <td data-label="Reason">{e.reason}</td>
      <td data-label="Added by">
        <Source client={client} source={e.source} />
      </td>
      <td data-label="Listed">{when(e.created_at)}</td>
      <td data-label="Removal">
        {removed ? (
          <span class="muted">
            Removed {when(removed.removed_at)} by {actorWords(removed.removed_by)}: {removed.reason}
          </span>
        ) : (
          <>
            {mayRemove ? (
              <button
                type="button"
                class="secondary danger"
                aria-label={`Remove ${e.phone_number}…`}
                onClick={() => dialog.current?.showModal()}
              >
                Remove…
              </button>
            ) : null}
            <dialog ref={dialog} aria-labelledby={`${id}-h`}>
              <h2 id={`${id}-h`}>Remove {e.phone_number} from the list?</h2>
              <form onSubmit={remove} noValidate>
                <p>
                  Campaigns may call this number again. The removal and its reason are kept in the
                  list's history.
                </p>
                <div class="field">
                  <label for={`${id}-reason`}>Why may it be called again?</label>
                  <textarea
                    id={`${id}-reason`}
                    rows={2}
                    value={reason}
                    aria-invalid={errors.reason ? true : undefined}
                    aria-describedby={errors.reason ? `${id}-reason-error` : undefined}
                    onInput={(ev) => setReason((ev.target as HTMLTextAreaElement).value)}
                  />
                  <FieldErrors id={`${id}-reason-error`} errors={errors.reason} />
                </div>
                {failure ? <Notice kind="error">{failure}</Notice> : null}
                <div class="buttons">
                  <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
                    Keep it listed
                  </button>
                  <button type="submit" class="danger" disabled={busy}>
                    Remove from the list
                  </button>
                </div>
              </form>
            </dialog>
          </>
        )}
      </td>
    </tr>
  );
}

function AddNumber({ client, onAdded }: { client: CampaignCallingClient; onAdded: () => void }) {
  const [phone, setPhone] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    setResult(null);
    const { data, error, response } = await client.POST('/api/v1/compliance/do-not-call', {
      body: { phone_numbers: [{ phone_number: phone.trim(), reason: reason.trim() }] },
    });
    setBusy(false);
    if (data) {
      setErrors({});
      const [added] = data.added;
      const [listed] = data.already_listed;
      setResult(
        added
          ? `${added.phone_number} is on the list.`
          : `${listed.phone_number} was already listed (since ${when(listed.created_at)}).`,
      );
      setPhone('');
      setReason('');
      onAdded();
    } else if (response.status === 422) {
      const { fields, other } = errorsByField(error);
      setErrors(fields);
      if (other.length) setFailure(other.join(' '));
    } else setFailure(errorText(error, response.status));
  };
  const field = (name: string, label: string, value: string, set: (v: string) => void) => (
    <div class="field">
      <label for={`dnc-${name}`}>{label}</label>
      <input
        id={`dnc-${name}`}
        type="text"
        inputMode={name === 'phone_number' ? 'tel' : undefined}
        value={value}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `dnc-${name}-error` : undefined}
        onInput={(e) => set((e.target as HTMLInputElement).value)}
      />
      <FieldErrors id={`dnc-${name}-error`} errors={errors[name]} />
    </div>
  );
  return (
    <section aria-labelledby="dnc-add-h">
      <h2 id="dnc-add-h">Add a number</h2>
      <form class="inline" onSubmit={submit} noValidate>
        {field('phone_number', 'Phone number', phone, setPhone)}
        {field('reason', 'Reason (a letter, an email…)', reason, setReason)}
        <button type="submit" disabled={busy}>
          Add to the list
        </button>
      </form>
      {failure ? <Notice kind="error">{failure}</Notice> : null}
      {result ? <Notice kind="ok">{result}</Notice> : null}
    </section>
  );
}
