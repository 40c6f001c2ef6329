/**
 * A link to a target named as a person knows it (the patient's name, else its MRN or phone number; see
 * targetName), for pages that only hold its id (the do-not-call list, the calling rules' decisions).
 * Each target is read once per client and kept; until then, or when it cannot be read (deleted), the
 * link says "the patient" / "a target".
 */
import { useEffect, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { href } from './app.js';
import { targetName } from './words.js';

const names = new WeakMap<CampaignCallingClient, Map<string, Promise<string | null>>>();

function readName(client: CampaignCallingClient, id: string): Promise<string | null> {
  let known = names.get(client);
  if (!known) names.set(client, (known = new Map()));
  let name = known.get(id);
  if (!name) {
    name = client
      .GET('/api/v1/targets/{target_id}', { params: { path: { target_id: id } } })
      .then(({ data }) => (data ? targetName(data) : null))
      .catch(() => null);
    known.set(id, name);
  }
  return name;
}

export function TargetLink({ client, id }: { client: CampaignCallingClient; id: string }) {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void readName(client, id).then((n) => live && setName(n));
    return () => {
      live = false;
    };
  }, [client, id]);
  return (
    <a href={href.target(id)} data-target-id={id}>
      {name ?? 'a target'}
    </a>
  );
}
