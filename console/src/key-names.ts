/**
 * The organization's API keys by id -> name, so a page says who did something ("the API key “EHR
 * integration”") instead of an id. Read once per client (one request per sign-in); a key that cannot
 * list keys (a 403 for a role without the permission) or a revoked key leaves the name unknown, and the
 * words say "an API key".
 */
import { useEffect, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';

const read = new WeakMap<CampaignCallingClient, Promise<Map<string, string>>>();

function keyNames(client: CampaignCallingClient): Promise<Map<string, string>> {
  const known = read.get(client);
  if (known) return known;
  const names = client
    .GET('/api/v1/api-keys')
    .then(({ data }) => new Map<string, string>((data?.api_keys ?? []).map((k) => [k.id, k.name])))
    .catch(() => new Map<string, string>());
  read.set(client, names);
  return names;
}

export function useKeyNames(client: CampaignCallingClient): ReadonlyMap<string, string> {
  const [names, setNames] = useState<ReadonlyMap<string, string>>(new Map());
  useEffect(() => {
    let live = true;
    void keyNames(client).then((n) => live && setNames(n));
    return () => {
      live = false;
    };
  }, [client]);
  return names;
}
