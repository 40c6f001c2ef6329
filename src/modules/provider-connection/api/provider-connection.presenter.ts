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

function maskDeep(value: unknown): unknown {
  if (typeof value === 'string') return maskSecret(value);
  if (Array.isArray(value)) return value.map(maskDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskDeep(v)]));
  }
  return value;
}

/**
 * A 422 echoes what was sent (`input`); credentials are masked there as everywhere else, whether the
 * error is inside `credentials` or the input is the whole body.
 */
export function maskCredentialInputs(
  items: PydanticErrorItem[],
  body: unknown,
): PydanticErrorItem[] {
  return items.map((item) => {
    if (item.loc[0] === 'body' && item.loc[1] === 'credentials') {
      return { ...item, input: maskDeep(item.input) };
    }
    if (item.input === body && body && typeof body === 'object' && 'credentials' in body) {
      const { credentials } = body as { credentials: unknown };
      return { ...item, input: { ...body, credentials: maskDeep(credentials) } };
    }
    return item;
  });
}
