import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, makeClient, storedKey, storeKey } from './api.js';
import { AuditPage } from './audit.js';
import { ClientContext } from './blacklist-picker.js';
import { CampaignPage } from './campaign.js';
import { CampaignsPage } from './campaigns.js';
import { CompliancePage } from './compliance.js';
import { DoNotCallPage } from './do-not-call.js';
import { PatientsPage } from './patients.js';
import { RetentionPage } from './retention.js';
import { NewCampaignPage } from './new-campaign.js';
import { ReviewPage } from './review.js';
import { SettingsPage } from './settings.js';
import { TargetPage } from './target.js';
import { WebhooksPage } from './webhooks.js';
import { Notice } from './ui.js';

/**
 * Hash routes hold ids only (never a phone number, a name or a filter value), so no personal data
 * reaches the address bar, the history or a referrer.
 */
export type Route =
  | { page: 'campaigns' }
  | { page: 'review' }
  | { page: 'compliance' }
  | { page: 'do-not-call' }
  | { page: 'audit' }
  | { page: 'retention' }
  | { page: 'patients' }
  | { page: 'new-campaign' }
  | { page: 'campaign'; id: string }
  | { page: 'settings'; id: string }
  | { page: 'webhooks'; id: string }
  | { page: 'target'; id: string }
  | { page: 'missing' };

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  if (parts.length === 0 || (parts.length === 1 && parts[0] === 'campaigns'))
    return { page: 'campaigns' };
  if (parts[0] === 'campaigns' && parts.length === 2 && parts[1] === 'new')
    return { page: 'new-campaign' };
  if (parts[0] === 'campaigns' && parts.length === 2) return { page: 'campaign', id: parts[1] };
  if (parts[0] === 'campaigns' && parts.length === 3 && parts[2] === 'settings')
    return { page: 'settings', id: parts[1] };
  if (parts[0] === 'campaigns' && parts.length === 3 && parts[2] === 'webhooks')
    return { page: 'webhooks', id: parts[1] };
  if (parts.length === 1 && parts[0] === 'review') return { page: 'review' };
  if (parts.length === 1 && parts[0] === 'compliance') return { page: 'compliance' };
  if (parts.length === 1 && parts[0] === 'do-not-call') return { page: 'do-not-call' };
  if (parts.length === 1 && parts[0] === 'audit') return { page: 'audit' };
  if (parts.length === 1 && parts[0] === 'retention') return { page: 'retention' };
  if (parts.length === 1 && parts[0] === 'patients') return { page: 'patients' };
  if (parts[0] === 'targets' && parts.length === 2) return { page: 'target', id: parts[1] };
  return { page: 'missing' };
}

export const href = {
  campaigns: () => '#/campaigns',
  review: () => '#/review',
  compliance: () => '#/compliance',
  doNotCall: () => '#/do-not-call',
  audit: () => '#/audit',
  retention: () => '#/retention',
  patients: () => '#/patients',
  newCampaign: () => '#/campaigns/new',
  campaign: (id: string) => `#/campaigns/${encodeURIComponent(id)}`,
  settings: (id: string) => `#/campaigns/${encodeURIComponent(id)}/settings`,
  webhooks: (id: string) => `#/campaigns/${encodeURIComponent(id)}/webhooks`,
  target: (id: string) => `#/targets/${encodeURIComponent(id)}`,
};

function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function App() {
  const [apiKey, setApiKey] = useState<string | null>(() => storedKey());
  const [expired, setExpired] = useState(false);
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  // On a phone the navigation is a menu behind one button (a row of links would wrap to three lines).
  const [menuOpen, setMenuOpen] = useState(false);
  const signOut = (why?: 'expired') => {
    storeKey(null);
    setApiKey(null);
    setExpired(why === 'expired');
  };
  const client = useMemo(
    () => (apiKey ? makeClient(apiKey, () => signOut('expired')) : null),
    [apiKey],
  );
  // A new page: move focus to its main region so keyboard and screen-reader users start there.
  useEffect(() => {
    setMenuOpen(false);
    main.current?.focus();
  }, [route]);

  if (!client) {
    return (
      <SignIn
        expired={expired}
        onSignedIn={(key) => {
          storeKey(key);
          setExpired(false);
          setApiKey(key);
        }}
      />
    );
  }
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={href.campaigns()}>
          Campaign Calling · Console
        </a>
        <button
          type="button"
          class="menu-button secondary"
          aria-expanded={menuOpen}
          aria-controls="main-nav"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <nav id="main-nav" aria-label="Main" class={menuOpen ? 'open' : undefined}>
          <a href={href.campaigns()}>Campaigns</a>
          <a href={href.review()}>Review queue</a>
          <a href={href.compliance()}>Calling rules</a>
          <a href={href.doNotCall()}>Do not call</a>
          <a href={href.audit()}>Audit</a>
          <a href={href.retention()}>Retention</a>
          <a href={href.patients()}>Patients</a>
          <a href="/docs">API docs</a>
          <button type="button" class="link" onClick={() => signOut()}>
            Sign out
          </button>
        </nav>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <ClientContext.Provider value={client}>
          <Page route={route} client={client} />
        </ClientContext.Provider>
      </main>
    </>
  );
}

function Page({ route, client }: { route: Route; client: CampaignCallingClient }) {
  // Keyed by id: another campaign or target starts from a fresh page (no notice or form value of the last).
  switch (route.page) {
    case 'campaigns':
      return <CampaignsPage client={client} />;
    case 'review':
      return <ReviewPage client={client} />;
    case 'compliance':
      return <CompliancePage client={client} />;
    case 'do-not-call':
      return <DoNotCallPage client={client} />;
    case 'audit':
      return <AuditPage client={client} />;
    case 'retention':
      return <RetentionPage client={client} />;
    case 'patients':
      return <PatientsPage client={client} />;
    case 'new-campaign':
      return <NewCampaignPage client={client} />;
    case 'campaign':
      return <CampaignPage key={route.id} client={client} id={route.id} />;
    case 'settings':
      return <SettingsPage key={route.id} client={client} id={route.id} />;
    case 'webhooks':
      return <WebhooksPage key={route.id} client={client} id={route.id} />;
    case 'target':
      return <TargetPage key={route.id} client={client} id={route.id} />;
    default:
      return (
        <>
          <h1>Page not found</h1>
          <p>
            <a href={href.campaigns()}>Back to the campaigns</a>
          </p>
        </>
      );
  }
}

function SignIn({ onSignedIn, expired }: { onSignedIn: (key: string) => void; expired: boolean }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const candidate = key.trim();
    if (!candidate) {
      setError('Enter an API key.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Any authenticated read tells whether the key is good; a 401 means it is not.
      const { error: err, response } = await makeClient(candidate).GET('/api/v1/campaigns', {
        params: { query: { limit: 1 } },
      });
      if (response.status === 401) {
        setError(`This API key was not accepted (${errorText(err, 401)}). Check it and try again.`);
      } else if (err) {
        setError(`Could not sign in: ${errorText(err, response.status)}`);
      } else onSignedIn(candidate);
    } catch {
      setError('The service could not be reached.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <main id="main" class="signin">
      <h1>Campaign Calling · Console</h1>
      <form onSubmit={submit} noValidate>
        {expired ? (
          <Notice kind="info">Your API key is no longer accepted: sign in again.</Notice>
        ) : null}
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          autoComplete="off"
          spellcheck={false}
          value={key}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'api-key-error' : 'api-key-help'}
          onInput={(e) => setKey((e.target as HTMLInputElement).value)}
        />
        <p id="api-key-help" class="muted">
          Sent as <code>X-API-Key</code> and kept in this tab only (sessionStorage).{' '}
          <code>npm start</code> prints a demo key.
        </p>
        {error ? (
          <p id="api-key-error" class="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
