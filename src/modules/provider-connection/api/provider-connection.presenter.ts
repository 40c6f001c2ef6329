import { maskSecret, ProviderConnection } from '../domain/provider-connection.js';
import { PydanticErrorItem } from '../../../common/validation/pydantic-errors.js';

export function presentConnection(c: ProviderConnection) {
  return {
    id: c.id,
    organization_id: c.organizationId,
    type: c.type,
    name: c.name,
    credentials: c.maskedCredentials,
    settings: c.settings,
    is_default: c.isDefault,
    events_url_path: `/api/v1/telephony/${c.id}/events`,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

/** Every value masked: a string as credentials are shown, anything else (a number, true) as `***`. */
function maskDeep(value: unknown): unknown {
  if (typeof value === 'string') return maskSecret(value);
  if (Array.isArray(value)) return value.map(maskDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskDeep(v)]));
  }
  return value === null || value === undefined ? value : '***';
}

/** A key under which someone would put a secret: `api_token`, `apiKey`, `client_secret`, `password`... */
const SECRET_KEY = /token|key|secret|passw|pwd|credential|auth|signature|private|bearer/i;

/** `settings` as echoed: what sits under a secret-looking key (at any depth) is masked. */
function maskSecretSettings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskSecretSettings);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        SECRET_KEY.test(k) ? maskDeep(v) : maskSecretSettings(v),
      ]),
    );
  }
  return value;
}

/**
 * A 422 echoes what was sent (`input`); credentials (whatever their type) are masked there as
 * everywhere else, and so is any `settings` value under a key that looks like a secret (a token typed
 * into the wrong place), whether the error is inside them or the input is the whole body.
 */
export function maskCredentialInputs(
  items: PydanticErrorItem[],
  body: unknown,
): PydanticErrorItem[] {
  return items.map((item) => {
    const [where, field, key] = item.loc;
    if (where === 'body' && field === 'credentials') {
      return { ...item, input: maskDeep(item.input) };
    }
    if (where === 'body' && field === 'settings') {
      const secret =
        typeof key === 'string' && item.loc.slice(2).some((k) => SECRET_KEY.test(String(k)));
      return { ...item, input: secret ? maskDeep(item.input) : maskSecretSettings(item.input) };
    }
    if (item.input === body && body && typeof body === 'object') {
      const { credentials, settings } = body as { credentials?: unknown; settings?: unknown };
      const masked: Record<string, unknown> = { ...body };
      if ('credentials' in body) masked.credentials = maskDeep(credentials);
      if ('settings' in body) masked.settings = maskSecretSettings(settings);
      return { ...item, input: masked };
    }
    return item;
  });
}
