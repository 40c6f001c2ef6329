/**
 * Who may use the organization's data (admins only): the people who sign in (invite, change role,
 * deactivate, reset the second factor), the API keys of systems (create, revoke), and the sign-in
 * policy (require a second factor). A secret (an invitation link, a key) is shown once, as the API
 * answers it, and kept in the page's memory only.
 */
import { useEffect, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText, when, type Me, type Schemas } from './api.js';
import { RoleSelect, TextField } from './form-fields.js';
import { localToIso, Notice } from './ui.js';

type User = Schemas['UserResponseDto'];
type Key = Schemas['ApiKeyResponseDto'];
const PERSON_ROLES = ['admin', 'operator', 'viewer'] as const;
const KEY_ROLES = ['admin', 'operator', 'viewer', 'integration'] as const;

/** "a, b" -> ["a", "b"]; empty -> undefined (every campaign). */
function campaignIds(text: string): string[] | undefined {
  const ids = text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  return ids.length ? ids : undefined;
}

function scopeWords(ids: string[] | null): string {
  return ids === null ? 'Every campaign' : `${ids.length} campaign${ids.length === 1 ? '' : 's'}`;
}

export function AccessPage({ client, me }: { client: CampaignCallingClient; me: Me }) {
  const [users, setUsers] = useState<User[]>([]);
  const [keys, setKeys] = useState<Key[]>([]);
  const [requireTotp, setRequireTotp] = useState<boolean | null>(null);
  const [message, setMessage] = useState<{ kind: 'error' | 'ok'; text: string } | null>(null);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);

  const load = async () => {
    const [u, k, p] = await Promise.all([
      client.GET('/api/v1/users'),
      client.GET('/api/v1/api-keys'),
      client.GET('/api/v1/sign-in-policy'),
    ]);
    if (u.data) setUsers(u.data.users);
    if (k.data) setKeys(k.data.api_keys);
    if (p.data) setRequireTotp(p.data.require_totp);
    const failed = [u, k, p].find((r) => !r.data);
    if (failed)
      setMessage({ kind: 'error', text: errorText(failed.error, failed.response.status) });
  };
  useEffect(() => {
    void load();
  }, [client]);

  /** Runs a change; on success says `done` and reads the lists again, else the service's words. */
  const act = async (
    run: () => Promise<{ error?: unknown; response: Response }>,
    done: string,
  ): Promise<boolean> => {
    setMessage(null);
    const { error, response } = await run();
    if (error || !response.ok) {
      setMessage({ kind: 'error', text: errorText(error, response.status) });
      return false;
    }
    setMessage({ kind: 'ok', text: done });
    await load();
    return true;
  };

  return (
    <>
      <h1>Access</h1>
      {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
      {secret ? (
        <div class="notice notice-info" role="status">
          <p>{secret.label} It is shown this once: copy it now and hand it over yourself.</p>
          <p>
            <code data-testid="secret">{secret.value}</code>
          </p>
          <button type="button" class="secondary" onClick={() => setSecret(null)}>
            I have copied it
          </button>
        </div>
      ) : null}

      <h2>People</h2>
      <InviteForm
        onInvite={async (body) => {
          setMessage(null);
          const { data, error, response } = await client.POST('/api/v1/users', { body });
          if (!data) {
            setMessage({ kind: 'error', text: errorText(error, response.status) });
            return false;
          }
          setSecret({
            label: `The invitation link for ${data.name} (it expires ${when(data.invitation.expires_at)}).`,
            value: data.invitation.url,
          });
          await load();
          return true;
        }}
      />
      <table class="stack">
        <caption class="sr-only">People</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Campaigns</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((u) => (
            <tr key={u.id}>
              <td data-label="Name">{u.name}</td>
              <td data-label="Email">{u.email}</td>
              <td data-label="Role">
                {u.status === 'deactivated' || u.id === me.id ? (
                  u.role
                ) : (
                  <RoleSelect
                    roles={PERSON_ROLES}
                    ariaLabel={`Role of ${u.name}`}
                    value={u.role}
                    onRole={(role) => {
                      void act(
                        () =>
                          client.PATCH('/api/v1/users/{user_id}', {
                            params: { path: { user_id: u.id } },
                            body: { role },
                          }),
                        `${u.name} is now ${role}.`,
                      );
                    }}
                  />
                )}
              </td>
              <td data-label="Campaigns">{scopeWords(u.campaign_ids)}</td>
              <td data-label="Status">{u.status}</td>
              <td data-label="Actions">
                {u.status !== 'deactivated' && u.id !== me.id ? (
                  <>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() =>
                        void act(
                          () =>
                            client.DELETE('/api/v1/users/{user_id}/totp', {
                              params: { path: { user_id: u.id } },
                            }),
                          `${u.name}'s second factor is reset.`,
                        )
                      }
                    >
                      Reset second factor
                    </button>{' '}
                    <button
                      type="button"
                      class="secondary"
                      onClick={() =>
                        void act(
                          () =>
                            client.DELETE('/api/v1/users/{user_id}', {
                              params: { path: { user_id: u.id } },
                            }),
                          `${u.name} is deactivated.`,
                        )
                      }
                    >
                      Deactivate {u.name}
                    </button>
                  </>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>API keys</h2>
      <KeyForm
        onCreate={async (body) => {
          setMessage(null);
          const { data, error, response } = await client.POST('/api/v1/api-keys', { body });
          if (!data) {
            setMessage({ kind: 'error', text: errorText(error, response.status) });
            return false;
          }
          setSecret({ label: `The API key “${data.name}”.`, value: data.key });
          await load();
          return true;
        }}
      />
      <table class="stack">
        <caption class="sr-only">API keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Campaigns</th>
            <th scope="col">Starts with</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id}>
              <td data-label="Name">{k.name}</td>
              <td data-label="Role">{k.role}</td>
              <td data-label="Campaigns">{scopeWords(k.campaign_ids)}</td>
              <td data-label="Starts with">
                <code>{k.key_prefix}</code>
              </td>
              <td data-label="Last used">{when(k.last_used_at) || 'Never'}</td>
              <td data-label="Expires">{when(k.expires_at) || 'Never'}</td>
              <td data-label="Actions">
                <button
                  type="button"
                  class="secondary"
                  onClick={() =>
                    void act(
                      () =>
                        client.DELETE('/api/v1/api-keys/{api_key_id}', {
                          params: { path: { api_key_id: k.id } },
                        }),
                      `The key “${k.name}” is revoked.`,
                    )
                  }
                >
                  Revoke {k.name}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>Sign-in policy</h2>
      {requireTotp === null ? null : (
        <label class="check">
          <input
            type="checkbox"
            checked={requireTotp}
            onChange={(e) => {
              const require_totp = (e.target as HTMLInputElement).checked;
              void act(
                () => client.PUT('/api/v1/sign-in-policy', { body: { require_totp } }),
                require_totp
                  ? 'Everyone must now sign in with a second factor.'
                  : 'A second factor is now optional.',
              );
            }}
          />{' '}
          Require a second factor (an authenticator app) for everyone
        </label>
      )}
    </>
  );
}

type NewUser = Schemas['CreateUserDto'];
type NewKey = Schemas['CreateApiKeyDto'];

function InviteForm({ onInvite }: { onInvite: (body: NewUser) => Promise<boolean> }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<NewUser['role']>('operator');
  const [campaigns, setCampaigns] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await onInvite({ name, email, role, campaign_ids: campaignIds(campaigns) });
    if (ok) {
      setName('');
      setEmail('');
      setCampaigns('');
    }
  };
  return (
    <form class="settings" onSubmit={submit} noValidate aria-label="Invite a person">
      <TextField id="invite-name" label="Name" value={name} onValue={setName} />
      <TextField id="invite-email" label="Email" type="email" value={email} onValue={setEmail} />
      <RoleSelect
        id="invite-role"
        label="Role"
        roles={PERSON_ROLES}
        value={role}
        onRole={setRole}
      />
      <TextField
        id="invite-campaigns"
        label="Campaign ids (empty: every campaign)"
        value={campaigns}
        onValue={setCampaigns}
      />
      <button type="submit">Invite</button>
    </form>
  );
}

function KeyForm({ onCreate }: { onCreate: (body: NewKey) => Promise<boolean> }) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<NewKey['role']>('integration');
  const [campaigns, setCampaigns] = useState('');
  const [expires, setExpires] = useState('');
  const submit = async (e: Event) => {
    e.preventDefault();
    const ok = await onCreate({
      name,
      role,
      campaign_ids: campaignIds(campaigns),
      expires_at: localToIso(expires),
    });
    if (ok) {
      setName('');
      setCampaigns('');
      setExpires('');
    }
  };
  return (
    <form class="settings" onSubmit={submit} noValidate aria-label="Create an API key">
      <TextField id="key-name" label="Key name" value={name} onValue={setName} />
      <RoleSelect id="key-role" label="Key role" roles={KEY_ROLES} value={role} onRole={setRole} />
      <TextField
        id="key-campaigns"
        label="Key campaign ids (empty: every campaign)"
        value={campaigns}
        onValue={setCampaigns}
      />
      <TextField
        id="key-expires"
        label="Expires (empty: never)"
        type="datetime-local"
        value={expires}
        onValue={setExpires}
      />
      <button type="submit">Create key</button>
    </form>
  );
}
