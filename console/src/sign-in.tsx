/**
 * Signing in as a person: email and password, the authenticator app's code when the service asks for
 * it, single sign-on when the service has it configured; and the invitation link's set-your-password
 * form. The session is a cookie the page never sees (docs/access.md).
 */
import { useEffect, useState } from 'preact/hooks';
import { errorText, makeClient, type Me } from './api.js';
import { TextField } from './form-fields.js';
import { Notice, useSubmit } from './ui.js';

/** The service's 401 detail when the account has a second factor and no code was sent. */
const CODE_NEEDED = /authenticator app as totp_code/;

export function SignIn({
  onSignedIn,
  expired,
}: {
  onSignedIn: (me: Me) => void;
  expired: boolean;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [askCode, setAskCode] = useState(false);
  const { busy, error, setError, submit: send } = useSubmit();
  const [sso, setSso] = useState<string | null>(null);
  useEffect(() => {
    void makeClient()
      .GET('/api/v1/sso')
      .then(({ data }) => {
        const status = data as { enabled?: boolean; login_url?: string | null } | undefined;
        if (status?.enabled && status.login_url) setSso(status.login_url);
      })
      .catch(() => undefined);
  }, []);
  const submit = (e: Event) => {
    e.preventDefault();
    if (!email.trim() || !password) {
      setError('Enter your email and password.');
      return;
    }
    void send(async () => {
      const {
        data,
        error: err,
        response,
      } = await makeClient().POST('/api/v1/sessions', {
        body: {
          email: email.trim(),
          password,
          ...(askCode && code ? { totp_code: code.trim() } : {}),
        },
      });
      if (data) {
        onSignedIn(data);
        return null;
      }
      if (response.status === 401 && CODE_NEEDED.test(errorText(err))) {
        setAskCode(true);
        return 'Enter the 6-digit code your authenticator app shows.';
      }
      return errorText(err, response.status);
    });
  };
  const described = error ? 'sign-in-error' : undefined;
  return (
    <main id="main" class="signin">
      <h1>Campaign Calling · Console</h1>
      <form onSubmit={submit} noValidate>
        {expired ? <Notice kind="info">Your session has ended: sign in again.</Notice> : null}
        <TextField
          id="email"
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          aria-describedby={described}
          onValue={setEmail}
        />
        <TextField
          id="password"
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          aria-describedby={described}
          onValue={setPassword}
        />
        {askCode ? (
          <TextField
            id="totp-code"
            label="Code from your authenticator app"
            name="totp-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onValue={setCode}
          />
        ) : null}
        {error ? (
          <p id="sign-in-error" class="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {sso ? (
          <p>
            <a class="button secondary" href={sso}>
              Sign in with single sign-on
            </a>
          </p>
        ) : null}
        <p class="muted">
          <code>npm start</code> prints the demo admin&apos;s email and password. New here? Open the
          invitation link your admin gave you.
        </p>
      </form>
    </main>
  );
}

/** The invitation link (`#/invitation/{token}`): the person sets a password, then signs in. */
export function InvitationPage({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, setError, submit: send } = useSubmit();
  const submit = (e: Event) => {
    e.preventDefault();
    if (password !== again) {
      setError('The two passwords differ.');
      return;
    }
    void send(async () => {
      const {
        data,
        error: err,
        response,
      } = await makeClient().POST('/api/v1/invitations/accept', { body: { token, password } });
      if (!data) return errorText(err, response.status);
      setDone(data.email);
      return null;
    });
  };
  if (done) {
    return (
      <main id="main" class="signin">
        <h1>Your password is set</h1>
        <p>
          Sign in as {done} with it. <a href="#/campaigns">Sign in</a>
        </p>
      </main>
    );
  }
  return (
    <main id="main" class="signin">
      <h1>Set your password</h1>
      <form onSubmit={submit} noValidate>
        <TextField
          id="new-password"
          label="Password (at least 12 characters)"
          type="password"
          autoComplete="new-password"
          value={password}
          onValue={setPassword}
        />
        <TextField
          id="new-password-again"
          label="The same password again"
          type="password"
          autoComplete="new-password"
          value={again}
          onValue={setAgain}
        />
        {error ? (
          <p class="field-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Set password'}
        </button>
      </form>
    </main>
  );
}
