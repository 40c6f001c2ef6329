import { useRef, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, fieldErrors, when } from './api.js';
import { href } from './app.js';
import { FieldErrors, Notice } from './ui.js';

interface PatientRecord {
  total_targets: number;
  targets: {
    id: string;
    campaign_id: string;
    status: string;
    created_at: string;
    purged_at: string | null;
    purged_parts: string[];
  }[];
  call_logs: { id: number; target_id: string; outcome: string | null; started_at: string }[];
  messages: { id: string; direction: string; body: string | null; created_at: string }[];
  do_not_call: { id: number; phone_number: string; reason: string; removed_at: string | null }[];
  decisions: { id: number; rule: string; action: string; decided_at: string }[];
}

type Key = { phone_number: string } | { external_id: string };

/**
 * One patient across every campaign: search by number or external id (kept in the page, never in the
 * address), the record (targets, calls, texts, do-not-call entries, decisions), and an erase button
 * behind a confirmation that asks for the reason.
 */
export function PatientsPage({ client }: { client: CampaignCallingClient }) {
  const [by, setBy] = useState<'phone_number' | 'external_id'>('phone_number');
  const [value, setValue] = useState('');
  const [key, setKey] = useState<Key | null>(null);
  const [record, setRecord] = useState<PatientRecord | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [erased, setErased] = useState<string | null>(null);

  const load = async (k: Key) => {
    const { data, error, response } = await client.GET('/api/v1/patients', {
      params: { query: { ...k, limit: 100 } },
    });
    if (response.ok) {
      setErrors({});
      setFailure(null);
      setRecord(data as unknown as PatientRecord);
      setKey(k);
    } else if (response.status === 422) setErrors(fieldErrors(error).fields);
    else setFailure(errorText(error, response.status));
  };
  const search = (ev: Event) => {
    ev.preventDefault();
    setErased(null);
    void load({ [by]: value.trim() } as Key);
  };
  return (
    <section aria-labelledby="patients-h">
      <h1 id="patients-h">Patients</h1>
      <form onSubmit={search} noValidate class="inline">
        <div class="field">
          <label for="patient-by">Find by</label>
          <select
            id="patient-by"
            value={by}
            onChange={(ev) => setBy((ev.target as HTMLSelectElement).value as typeof by)}
          >
            <option value="phone_number">Phone number</option>
            <option value="external_id">External id</option>
          </select>
        </div>
        <div class="field">
          <label for="patient-value">
            {by === 'phone_number' ? 'Phone number' : 'External id'}
          </label>
          <input
            id="patient-value"
            value={value}
            aria-invalid={errors[by] ? true : undefined}
            onInput={(ev) => setValue((ev.target as HTMLInputElement).value)}
          />
          <FieldErrors id="patient-value-error" errors={errors[by]} />
        </div>
        <button type="submit">Search</button>
      </form>
      {failure ? <Notice kind="error">{failure}</Notice> : null}
      {erased ? <Notice kind="ok">{erased}</Notice> : null}
      {record && key ? (
        <>
          <h2>
            {record.total_targets} target{record.total_targets === 1 ? '' : 's'}
          </h2>
          <table class="stack">
            <thead>
              <tr>
                <th>Target</th>
                <th>Status</th>
                <th>Added</th>
                <th>Purged</th>
              </tr>
            </thead>
            <tbody>
              {record.targets.map((t) => (
                <tr key={t.id} data-patient-target={t.id}>
                  <td data-label="Target">
                    <a href={href.target(t.id)}>{t.id}</a>
                  </td>
                  <td data-label="Status">{t.status}</td>
                  <td data-label="Added">{when(t.created_at)}</td>
                  <td data-label="Purged">
                    {t.purged_at ? `${when(t.purged_at)}: ${t.purged_parts.join(', ')}` : ''}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            {record.call_logs.length} calls, {record.messages.length} texts,{' '}
            {record.do_not_call.length} do-not-call entries, {record.decisions.length} decisions of
            the calling rules.
          </p>
          <Erase
            client={client}
            subject={key}
            onErased={(words) => {
              setErased(words);
              void load(key);
            }}
          />
        </>
      ) : null}
    </section>
  );
}

function Erase({
  client,
  subject,
  onErased,
}: {
  client: CampaignCallingClient;
  subject: Key;
  onErased: (words: string) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState('');
  const [includeList, setIncludeList] = useState(false);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const erase = async (ev: Event) => {
    ev.preventDefault();
    const { data, error, response } = await client.POST('/api/v1/patients/erase', {
      body: { ...subject, reason: reason.trim(), include_do_not_call: includeList },
    });
    if (response.ok) {
      dialog.current?.close();
      setErrors({});
      onErased((data as unknown as { detail: string }).detail);
    } else if (response.status === 422) setErrors(fieldErrors(error).fields);
    else setFailure(errorText(error, response.status));
  };
  return (
    <>
      <button type="button" class="danger" onClick={() => dialog.current?.showModal()}>
        Erase this patient's data…
      </button>
      <dialog ref={dialog} aria-labelledby="erase-h">
        <h2 id="erase-h">Erase this patient's data in every campaign?</h2>
        <form onSubmit={erase} noValidate>
          <p>
            Input data, patient fields, transcripts, recordings, texts and numbers are removed for
            good. Statuses and the campaigns' numbers stay. The erasure and its reason are recorded.
          </p>
          <div class="field">
            <label for="erase-reason">Why is it erased?</label>
            <textarea
              id="erase-reason"
              rows={2}
              value={reason}
              aria-invalid={errors.reason ? true : undefined}
              onInput={(ev) => setReason((ev.target as HTMLTextAreaElement).value)}
            />
            <FieldErrors id="erase-reason-error" errors={errors.reason} />
          </div>
          {'phone_number' in subject ? (
            <label>
              <input
                type="checkbox"
                checked={includeList}
                onChange={(ev) => setIncludeList((ev.target as HTMLInputElement).checked)}
              />{' '}
              Also erase the number's do-not-call entries (it may then be called again)
            </label>
          ) : null}
          {failure ? <Notice kind="error">{failure}</Notice> : null}
          <div class="buttons">
            <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
              Keep it
            </button>
            <button type="submit" class="danger">
              Erase
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
