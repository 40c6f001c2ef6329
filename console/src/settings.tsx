import { useEffect, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, fieldErrors, type Campaign, type Schemas } from './api.js';
import { href } from './app.js';
import { BlacklistPicker } from './blacklist-picker.js';
import { CountrySelect, useOrganizationCountry } from './country-select.js';
import { StepsEditor } from './steps-editor.js';
import { FieldErrors, Notice } from './ui.js';
import { SmsFollowUpEditor } from './sms-editor.js';
import { VoicemailMessageEditor } from './voicemail-editor.js';
import { WeekScheduleEditor } from './week-editor.js';
import { CAMPAIGN_TYPE_WORDS } from './words.js';

type Kind =
  | 'text'
  | 'int'
  | 'json'
  | 'window'
  | 'steps'
  | 'entry'
  | 'sms'
  | 'voicemail'
  | 'list'
  | 'blacklists'
  | 'type'
  | 'country'
  | 'nullable';
export interface FieldSpec {
  name: keyof Schemas['UpdateCampaignDto'];
  label: string;
  kind: Kind;
  help?: string;
}

const CAMPAIGN_TYPES = Object.entries(CAMPAIGN_TYPE_WORDS);

export const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', kind: 'text' },
  { name: 'type', label: 'Who is called', kind: 'type' },
  {
    name: 'caller_id',
    label: 'Caller id',
    kind: 'nullable',
    help: 'The phone number the people called see, e.g. +16175550100; empty: the test line.',
  },
  {
    name: 'max_attempts',
    label: 'Max attempts',
    kind: 'int',
    help: 'How many times in all a person not reached is called (1 to 20).',
  },
  {
    name: 'retry_delay_minutes',
    label: 'Retry delay (minutes)',
    kind: 'int',
    help: 'How long to wait before calling again after a call that did not reach them (0 to 10080).',
  },
  {
    name: 'max_concurrent_calls',
    label: 'Max concurrent calls',
    kind: 'int',
    help: 'How many calls of this campaign may be in progress at the same time (1 to 1000).',
  },
  {
    name: 'calling_window',
    label: 'Calling window',
    kind: 'window',
    help: 'Calls start only within these hours (HH:MM; 24:00 ends the day).',
  },
  {
    name: 'steps',
    label: 'Steps',
    kind: 'steps',
    help: 'What a target waits for before it is called: a form filled in, an event from your EHR. Each is reported by your systems (an API call, a webhook) under its id.',
  },
  {
    name: 'entry_step',
    label: 'First step to wait for',
    kind: 'entry',
    help: 'New targets wait for this step before their first call; none: they are called without waiting.',
  },
  {
    name: 'sms_follow_up',
    label: 'Follow-up text message',
    kind: 'sms',
  },
  {
    name: 'voicemail_message',
    label: 'Voicemail message',
    kind: 'voicemail',
    help: 'What is left on a patient’s voicemail when the call reaches it, up to 500 characters. Put a patient’s data in with {{patient.first_name}}, {{patient.last_name}}, {{patient.date_of_birth}} or {{patient.external_id}} (the MRN), or any other column of the import with {{input_data.appointment_date}}. Empty: the message set on the phone connection.',
  },
  {
    name: 'default_country',
    label: 'Country of phone numbers written without +',
    kind: 'country',
    help: 'A number written without + and a country code, such as (617) 253-1217, is read as a number of this country, in this campaign’s imports and targets. The organization’s is set on the Calling rules page.',
  },
  {
    name: 'blacklist_ids',
    label: 'Blacklists',
    kind: 'blacklists',
    help: 'Numbers on a chosen blacklist are never called by this campaign (the do-not-call list applies to every campaign).',
  },
  {
    name: 'webhook_url',
    label: 'Webhook URL',
    kind: 'nullable',
    help: 'The address of your system that is told each call’s result (https://…); empty: nothing is sent.',
  },
];

/** The step ids in the steps field's text (none when it does not parse). */
export function stepIdsOf(stepsText: string): string[] {
  try {
    const steps: unknown = JSON.parse(stepsText || '[]');
    return Array.isArray(steps)
      ? steps
          .map((st) => (st as { friendly_id?: unknown } | null)?.friendly_id)
          .filter((v): v is string => typeof v === 'string' && v !== '')
      : [];
  } catch {
    return [];
  }
}

export function toText(kind: Kind, value: unknown): string {
  if (kind === 'json' || kind === 'window' || kind === 'steps' || kind === 'sms')
    return JSON.stringify(value ?? null, null, 2);
  if (kind === 'list' || kind === 'blacklists')
    return ((value as string[] | undefined) ?? []).join(', ');
  return value === null || value === undefined ? '' : String(value);
}

/** The form's text back into the field's JSON value (left as typed when it does not parse: the API says why). */
export function fromText(kind: Kind, text: string): { value?: unknown; error?: string } {
  switch (kind) {
    case 'int':
      return { value: /^-?\d+$/.test(text.trim()) ? Number(text.trim()) : text };
    case 'nullable':
    case 'entry':
    case 'country':
    case 'voicemail':
      return { value: text.trim() === '' ? null : text.trim() };
    case 'list':
    case 'blacklists':
      return {
        value: text
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      };
    case 'json':
    case 'window':
    case 'steps':
    case 'sms':
      try {
        return { value: JSON.parse(text) };
      } catch (err) {
        return { error: `Not valid JSON: ${(err as Error).message}` };
      }
    default:
      return { value: text };
  }
}

export function SettingsPage({ client, id }: { client: CampaignCallingClient; id: string }) {
  const [campaign, setCampaign] = useState<Campaign | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string[]>([]);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const orgCountry = useOrganizationCountry(client);

  const reset = (c: Campaign) => {
    setCampaign(c);
    setTexts(
      Object.fromEntries(FIELDS.map((f) => [f.name, toText(f.kind, c[f.name as keyof Campaign])])),
    );
  };
  useEffect(() => {
    void client
      .GET('/api/v1/campaigns/{campaign_id}', { params: { path: { campaign_id: id } } })
      .then(({ data, error, response }) =>
        data ? reset(data) : setLoadError(errorText(error, response.status)),
      );
  }, [client, id]);

  const save = async (e: Event) => {
    e.preventDefault();
    if (!campaign) return;
    setSaved(false);
    setFormError([]);
    const body: Record<string, unknown> = {};
    const local: Record<string, string[]> = {};
    for (const f of FIELDS) {
      const before = toText(f.kind, campaign[f.name as keyof Campaign]);
      if (texts[f.name] === before) continue; // only what the operator changed
      const parsed = fromText(f.kind, texts[f.name]);
      if (parsed.error) local[f.name] = [parsed.error];
      else body[f.name] = parsed.value;
    }
    setErrors(local);
    if (Object.keys(local).length) return;
    if (Object.keys(body).length === 0) {
      setFormError(['Nothing changed.']);
      return;
    }
    setBusy(true);
    const { data, error, response } = await client.PATCH('/api/v1/campaigns/{campaign_id}', {
      params: { path: { campaign_id: id } },
      body: body as Schemas['UpdateCampaignDto'],
    });
    setBusy(false);
    if (data) {
      reset(data);
      setSaved(true);
    } else if (response.status === 422) {
      const { fields, other } = fieldErrors(error);
      setErrors(fields);
      setFormError(other);
      // Bring the first invalid field into view and focus, so the error is where the operator is.
      const first = FIELDS.find((f) => fields[f.name]);
      if (first) setTimeout(() => document.getElementById(`s-${first.name}`)?.focus(), 0);
    } else setFormError([errorText(error, response.status)]);
  };

  if (loadError) return <Notice kind="error">Could not load the campaign: {loadError}</Notice>;
  if (!campaign) return <p>Loading…</p>;
  return (
    <>
      <p class="crumbs">
        <a href={href.campaigns()}>Campaigns</a> / <a href={href.campaign(id)}>{campaign.name}</a> /
      </p>
      <h1>Settings</h1>
      <form class="settings" onSubmit={save} noValidate aria-label="Campaign settings">
        {FIELDS.map((f) => (
          <CampaignField
            key={f.name}
            field={f}
            idPrefix="s"
            text={texts[f.name] ?? ''}
            errors={errors[f.name]}
            onText={(text) => setTexts({ ...texts, [f.name]: text })}
            stepIds={stepIdsOf(texts.steps ?? '')}
            orgCountry={orgCountry}
          />
        ))}
        {formError.length ? <Notice kind="error">{formError.join(' ')}</Notice> : null}
        {saved ? <Notice kind="ok">Saved.</Notice> : null}
        <div class="buttons">
          <button type="submit" disabled={busy}>
            Save changes
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() => (reset(campaign), setErrors({}), setFormError([]))}
          >
            Discard changes
          </button>
        </div>
      </form>
    </>
  );
}

/** One campaign field (label, control, help, the API's errors linked to it), for settings and create. */
export function CampaignField({
  field: f,
  idPrefix,
  text,
  errors: err,
  onText,
  stepIds = [],
  orgCountry = null,
}: {
  field: FieldSpec;
  idPrefix: string;
  text: string;
  errors: string[] | undefined;
  onText: (text: string) => void;
  /** The steps' ids as the form has them now, for the first step's choice. */
  stepIds?: string[];
  /** The organization's country of national numbers (the policy's), for the campaign's empty choice. */
  orgCountry?: string | null;
}) {
  const fid = `${idPrefix}-${f.name}`;
  const describedBy = [err ? `${fid}-error` : '', f.help ? `${fid}-help` : '']
    .filter(Boolean)
    .join(' ');
  const common = {
    id: fid,
    name: f.name,
    value: text,
    'aria-invalid': err ? true : undefined,
    'aria-describedby': describedBy || undefined,
    onInput: (e: Event) => onText((e.target as HTMLInputElement).value),
  };
  // Fields edited with a control of their own (days and hours, a list of steps, a choice of blacklists).
  const Editor =
    f.kind === 'window'
      ? WeekScheduleEditor
      : f.kind === 'steps'
        ? StepsEditor
        : f.kind === 'blacklists'
          ? BlacklistPicker
          : f.kind === 'sms'
            ? SmsFollowUpEditor
            : f.kind === 'voicemail'
              ? VoicemailMessageEditor
              : null;
  return (
    <div class={`field${err ? ' invalid' : ''}`} data-field={f.name}>
      {Editor ? (
        <Editor
          id={fid}
          legend={f.label}
          text={text}
          invalid={Boolean(err)}
          describedBy={describedBy || undefined}
          onText={onText}
        />
      ) : (
        <label for={fid}>{f.label}</label>
      )}
      {Editor ? null : f.kind === 'json' ? (
        <textarea {...common} rows={5} spellcheck={false} />
      ) : f.kind === 'type' ? (
        <select {...common} onChange={common.onInput}>
          {CAMPAIGN_TYPES.map(([t, words]) => (
            <option key={t} value={t} title={t}>
              {words}
            </option>
          ))}
        </select>
      ) : f.kind === 'country' ? (
        <CountrySelect
          id={fid}
          value={text}
          inherit={orgCountry ? `Use the organization's (${orgCountry})` : "Use the organization's"}
          invalid={Boolean(err)}
          describedBy={describedBy || undefined}
          onValue={onText}
        />
      ) : f.kind === 'entry' ? (
        <select {...common} onChange={common.onInput}>
          <option value="">None: call without waiting</option>
          {[...new Set([...stepIds, ...(text ? [text] : [])])].filter(Boolean).map((step) => (
            <option key={step} value={step}>
              {step}
            </option>
          ))}
        </select>
      ) : (
        <input {...common} type="text" inputMode={f.kind === 'int' ? 'numeric' : undefined} />
      )}
      {f.help ? (
        <p class="muted help" id={`${fid}-help`}>
          {f.help}
        </p>
      ) : null}
      <FieldErrors id={`${fid}-error`} errors={err} />
    </div>
  );
}
