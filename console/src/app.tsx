import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { makeClient, rememberSessionToken, type Me } from './api.js';
import { AccessPage } from './access.js';
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
import { PermissionsContext } from './permissions.js';
import { InvitationPage, SignIn } from './sign-in.js';

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
  | { page: 'access' }
  | { page: 'invitation'; token: string }
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
  if (parts.length === 1 && parts[0] === 'access') return { page: 'access' };
  if (parts[0] === 'invitation' && parts.length === 2)
    return { page: 'invitation', token: parts[1] };
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
  access: () => '#/access',
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

const ROLE_WORDS: Record<Me['role'], string> = {
  admin: 'Admin',
  operator: 'Operator',
  viewer: 'Viewer',
  integration: 'Integration',
};

export function App() {
  // undefined: not known yet (the session cookie, if any, is being checked); null: signed out.
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [expired, setExpired] = useState(false);
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  // On a phone the navigation is a menu behind one button (a row of links would wrap to three lines).
  const [menuOpen, setMenuOpen] = useState(false);
  const signedIn = (who: Me | null, why?: 'expired') => {
    rememberSessionToken(who?.session?.csrf_token ?? null);
    setExpired(why === 'expired');
    setMe(who);
  };
  const client = useMemo(() => makeClient(() => signedIn(null, 'expired')), []);
  const may = useMemo(() => new Set<string>(me?.permissions ?? []), [me]);
  // A reload keeps the session (the cookie): ask who is signed in, if anyone.
  useEffect(() => {
    void makeClient()
      .GET('/api/v1/me')
      .then(({ data }) => signedIn(data && data.kind === 'user' ? data : null))
      .catch(() => signedIn(null));
  }, []);
  // A new page: move focus to its main region so keyboard and screen-reader users start there.
  useEffect(() => {
    setMenuOpen(false);
    main.current?.focus();
  }, [route]);

  if (route.page === 'invitation') return <InvitationPage token={route.token} />;
  if (me === undefined) return <main id="main" class="signin" aria-busy="true" />;
  if (me === null) return <SignIn expired={expired} onSignedIn={(who) => signedIn(who)} />;
  const signOut = async () => {
    await client.DELETE('/api/v1/sessions/current').catch(() => undefined);
    signedIn(null);
  };
  const has = (p: string) => may.has(p);
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
          {has('targets.read') ? <a href={href.review()}>Review queue</a> : null}
          {has('compliance.read') ? <a href={href.compliance()}>Calling rules</a> : null}
          {has('do_not_call.read') ? <a href={href.doNotCall()}>Do not call</a> : null}
          {has('audit_events.read') ? <a href={href.audit()}>Audit</a> : null}
          {has('retention.read') ? <a href={href.retention()}>Retention</a> : null}
          {has('patients.read') ? <a href={href.patients()}>Patients</a> : null}
          {has('users.manage') ? <a href={href.access()}>Access</a> : null}
          <a href="/docs">API docs</a>
          <span class="who" data-testid="who">
            {me.name} · {ROLE_WORDS[me.role]}
          </span>
          <button type="button" class="link" onClick={() => void signOut()}>
            Sign out
          </button>
        </nav>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <PermissionsContext.Provider value={may}>
          <ClientContext.Provider value={client}>
            <Page route={route} client={client} me={me} />
          </ClientContext.Provider>
        </PermissionsContext.Provider>
      </main>
    </>
  );
}

function Page({ route, client, me }: { route: Route; client: CampaignCallingClient; me: Me }) {
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
    case 'access':
      return <AccessPage client={client} me={me} />;
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
