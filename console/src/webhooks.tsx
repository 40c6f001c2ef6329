import { useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import {
  errorText,
  fieldErrors,
  readCampaign,
  when,
  type Delivery,
  type DeliveryDetail,
} from './api.js';
import { href } from './app.js';
import { CampaignCrumbs } from './crumbs.js';
import { FieldErrors, localToIso, Notice, Pager, StatusBadge, usePoll } from './ui.js';
import { codeWords } from './words.js';

const DELIVERY_STATUSES = ['pending', 'sending', 'delivered', 'failed'] as const;
type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export function WebhooksPage({ client, id }: { client: CampaignCallingClient; id: string }) {
  const [status, setStatus] = useState<'' | DeliveryStatus>('');
  const [page, setPage] = useState(0);
  const campaign = usePoll(() => readCampaign(client, id), [id], 0);
  const list = usePoll(
    async () => {
      const { data, error, response } = await client.GET(
        '/api/v1/campaigns/{campaign_id}/webhooks/deliveries',
        {
          params: {
            path: { campaign_id: id },
            query: { page, limit: 25, status: status || undefined },
          },
        },
      );
      if (!data) throw new Error(errorText(error, response.status));
      return data;
    },
    [id, status, page],
    5000,
  );
  return (
    <>
      <CampaignCrumbs client={client} campaignId={id} />
      <h1>Webhook deliveries</h1>
      {campaign.value && !campaign.value.webhook_url ? (
        <Notice kind="info">
          <p data-no-webhook>
            This campaign has no webhook URL, so nothing is sent to your systems and nothing is
            listed here. To be told of each call’s result, set one in the campaign’s{' '}
            <a href={href.settings(id)}>settings</a>.
          </p>
        </Notice>
      ) : (
        <RerunFailed client={client} id={id} onDone={list.reload} />
      )}
      <section aria-labelledby="deliveries-h">
        <h2 id="deliveries-h">Deliveries</h2>
        <div class="field compact">
          <label for="d-status">Status</label>
          <select
            id="d-status"
            value={status}
            onChange={(e) => {
              setPage(0);
              setStatus((e.target as HTMLSelectElement).value as DeliveryStatus | '');
            }}
          >
            <option value="">Any</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {codeWords(s)}
              </option>
            ))}
          </select>
        </div>
        {list.error ? (
          <Notice kind="error">Could not load the deliveries: {list.error}</Notice>
        ) : null}
        {!list.value ? (
          <p>Loading…</p>
        ) : list.value.deliveries.length === 0 ? (
          <p class="muted" data-empty>
            {status
              ? `No deliveries with status “${codeWords(status)}”.`
              : campaign.value && !campaign.value.webhook_url
                ? 'No deliveries.'
                : 'No deliveries yet: they appear when a call of this campaign ends.'}
          </p>
        ) : (
          <ul class="deliveries">
            {list.value.deliveries.map((d) => (
              <DeliveryRow key={d.id} client={client} delivery={d} />
            ))}
          </ul>
        )}
        {list.value ? (
          <Pager
            page={page}
            pageCount={list.value.page_count}
            onPage={setPage}
            label="Delivery pages"
          />
        ) : null}
      </section>
    </>
  );
}

function DeliveryRow({
  client,
  delivery: d,
}: {
  client: CampaignCallingClient;
  delivery: Delivery;
}) {
  const [detail, setDetail] = useState<DeliveryDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = async () => {
    const {
      data,
      error: err,
      response,
    } = await client.GET('/api/v1/webhook-deliveries/{delivery_id}', {
      params: { path: { delivery_id: d.id } },
    });
    if (data) setDetail(data);
    else setError(errorText(err, response.status));
  };
  return (
    <li class="delivery" data-delivery-id={d.id}>
      <details onToggle={(e) => (e.target as HTMLDetailsElement).open && !detail && void load()}>
        <summary>
          <StatusBadge status={d.status} /> {d.event_type} · {d.attempt_count} attempt
          {d.attempt_count === 1 ? '' : 's'} · {when(d.created_at)}
          {d.last_status_code ? ` · last HTTP ${d.last_status_code}` : ''}
        </summary>
        <p class="muted">
          {d.target_id ? (
            <>
              Target <a href={href.target(d.target_id)}>{d.target_id.slice(0, 8)}</a>
            </>
          ) : (
            'Campaign event (no target)'
          )}
          {d.next_attempt_at ? ` · next attempt ${when(d.next_attempt_at)}` : ''}
          {d.delivered_at ? ` · delivered ${when(d.delivered_at)}` : ''}
          {d.last_error ? ` · last error: ${d.last_error}` : ''}
        </p>
        {error ? <Notice kind="error">{error}</Notice> : null}
        {detail ? (
          <div class="table-wrap" tabIndex={0} role="region" aria-label="Attempts">
            <table>
              <thead>
                <tr>
                  <th scope="col">Attempted</th>
                  <th scope="col">Result</th>
                  <th scope="col">HTTP</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Error / response</th>
                </tr>
              </thead>
              <tbody>
                {detail.attempts.length === 0 ? (
                  <tr>
                    <td colSpan={5}>No attempt yet.</td>
                  </tr>
                ) : (
                  detail.attempts.map((a, i) => (
                    <tr key={i}>
                      <td>{when(a.attempted_at)}</td>
                      <td>{a.success ? 'delivered' : 'failed'}</td>
                      <td>{a.status_code ?? '—'}</td>
                      <td>{a.duration_ms ?? '—'} ms</td>
                      <td>{a.error ?? a.response_excerpt ?? ''}</td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        ) : null}
      </details>
    </li>
  );
}

function RerunFailed({
  client,
  id,
  onDone,
}: {
  client: CampaignCallingClient;
  id: string;
  onDone: () => void;
}) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [result, setResult] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setResult(null);
    setFailure(null);
    // Both ends are needed (the API's from_date and to_date): say so at the empty field, not a 422.
    const missing: Record<string, string[]> = {};
    if (!from) missing.from_date = ['Choose the date and time the window starts.'];
    if (!to) missing.to_date = ['Choose the date and time the window ends.'];
    setErrors(missing);
    if (Object.keys(missing).length) {
      document.getElementById(`r-${Object.keys(missing)[0]}`)?.focus();
      return;
    }
    const { data, error, response } = await client.POST(
      '/api/v1/campaigns/{campaign_id}/webhooks/rerun-failed',
      {
        params: { path: { campaign_id: id } },
        body: { from_date: localToIso(from) ?? '', to_date: localToIso(to) ?? '' },
      },
    );
    if (data) {
      setErrors({});
      setResult(
        `${data.requeued} failed deliver${data.requeued === 1 ? 'y' : 'ies'} queued again.`,
      );
      onDone();
    } else if (response.status === 422) {
      const { fields, other } = fieldErrors(error);
      setErrors(fields);
      if (other.length) setFailure(other.join(' '));
    } else setFailure(errorText(error, response.status));
  };
  const field = (name: string, label: string, value: string, set: (v: string) => void) => (
    <div class="field">
      <label for={`r-${name}`}>{label}</label>
      <input
        id={`r-${name}`}
        type="datetime-local"
        value={value}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `r-${name}-error` : undefined}
        onInput={(e) => set((e.target as HTMLInputElement).value)}
      />
      <FieldErrors id={`r-${name}-error`} errors={errors[name]} />
    </div>
  );
  return (
    <section aria-labelledby="rerun-h">
      <h2 id="rerun-h">Re-run failed deliveries</h2>
      <p class="muted">
        Queues again the failed deliveries of events created in this window (your local time).
      </p>
      <form class="inline" onSubmit={submit} noValidate>
        {field('from_date', 'From', from, setFrom)}
        {field('to_date', 'To', to, setTo)}
        <button type="submit">Re-run failed</button>
      </form>
      {failure ? <Notice kind="error">{failure}</Notice> : null}
      {result ? <Notice kind="ok">{result}</Notice> : null}
    </section>
  );
}
