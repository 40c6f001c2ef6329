import { useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, fieldErrors, type Schemas } from './api.js';
import { href } from './app.js';
import { useOrganizationCountry } from './country-select.js';
import { CampaignField, FIELDS, fromText, stepIdsOf } from './settings.js';
import { Notice } from './ui.js';

/**
 * The secret of a campaign just created, handed to its page in memory (never in the URL): the API
 * shows it on creation only, so the page shows it once.
 */
const createdSecrets = new Map<string, string>();
export function takeCreatedSecret(campaignId: string): string | null {
  const secret = createdSecrets.get(campaignId) ?? null;
  createdSecrets.delete(campaignId);
  return secret;
}

/** The API's defaults, so the operator sees what an untouched field means. */
const INITIAL: Record<string, string> = {
  name: '',
  type: 'patient',
  caller_id: '',
  max_attempts: '3',
  retry_delay_minutes: '60',
  max_concurrent_calls: '10',
  webhook_url: '',
  entry_step: '',
  blacklist_ids: '',
  calling_window: '',
  steps: '',
  sms_follow_up: '',
  voicemail_message: '',
  default_country: '',
};

/** `#/campaigns/new`: the main campaign fields; the API's 422 at its field; then the new campaign's page. */
export function NewCampaignPage({ client }: { client: CampaignCallingClient }) {
  const [texts, setTexts] = useState<Record<string, string>>(INITIAL);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [formError, setFormError] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const orgCountry = useOrganizationCountry(client);

  const create = async (e: Event) => {
    e.preventDefault();
    setFormError([]);
    // Empty optional fields are left out (the API's default); the name is always sent, so a missing
    // one is the API's "Field required" at the name.
    const body: Record<string, unknown> = { name: texts.name };
    const local: Record<string, string[]> = {};
    for (const f of FIELDS) {
      if (f.name === 'name' || texts[f.name].trim() === '') continue;
      const parsed = fromText(f.kind, texts[f.name]);
      if (parsed.error) local[f.name] = [parsed.error];
      else body[f.name] = parsed.value;
    }
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    const { data, error, response } = await client.POST('/api/v1/campaigns', {
      body: body as Schemas['CreateCampaignDto'],
    });
    setBusy(false);
    if (data) {
      // The secret signs the notifications: worth showing only when there is a URL to send them to.
      if (data.webhook_secret && data.webhook_url) createdSecrets.set(data.id, data.webhook_secret);
      location.hash = href.campaign(data.id);
    } else if (response.status === 422) {
      const { fields, other } = fieldErrors(error);
      setErrors(fields);
      setFormError(other);
      const first = FIELDS.find((f) => fields[f.name]);
      if (first) setTimeout(() => document.getElementById(`n-${first.name}`)?.focus(), 0);
    } else setFormError([errorText(error, response.status)]);
  };

  return (
    <>
      <p class="crumbs">
        <a href={href.campaigns()}>Campaigns</a> /
      </p>
      <h1>New campaign</h1>
      <form class="settings" onSubmit={create} noValidate aria-label="New campaign">
        {FIELDS.map((f) => (
          <CampaignField
            key={f.name}
            field={f}
            idPrefix="n"
            text={texts[f.name] ?? ''}
            errors={errors[f.name]}
            onText={(text) => setTexts({ ...texts, [f.name]: text })}
            stepIds={stepIdsOf(texts.steps ?? '')}
            orgCountry={orgCountry}
          />
        ))}
        {formError.length ? <Notice kind="error">{formError.join(' ')}</Notice> : null}
        <div class="buttons">
          <button type="submit" disabled={busy}>
            {busy ? 'Creating…' : 'Create campaign'}
          </button>
          <a href={href.campaigns()}>Cancel</a>
        </div>
      </form>
    </>
  );
}
