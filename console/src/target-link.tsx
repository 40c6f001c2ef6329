/**
 * A target named as a person knows it, for pages that only hold its id (the do-not-call list, the
 * calling rules' decisions): a link with the patient's name (else the MRN, see targetName), and beside
 * it the MRN and the phone number (targetDetails; `phone={false}` where the row already shows the
 * number). Each target is read once per client and kept; until then, or when it cannot be read
 * (deleted, or the key may not read it), the link says "a target".
 */
import { useEffect, useState } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { href } from './app.js';
import { targetDetails, targetName } from './patient.js';

interface Naming {
  name: string;
  mrn: string | null;
  details: string;
}

const names = new WeakMap<CampaignCallingClient, Map<string, Promise<Naming | null>>>();

function readNaming(client: CampaignCallingClient, id: string): Promise<Naming | null> {
  let known = names.get(client);
  if (!known) names.set(client, (known = new Map()));
  let naming = known.get(id);
  if (!naming) {
    naming = client
      .GET('/api/v1/targets/{target_id}', { params: { path: { target_id: id } } })
      .then(({ data }) =>
        data
          ? {
              name: targetName(data),
              mrn: targetDetails({ ...data, phone_number: null }) || null,
              details: targetDetails(data),
            }
          : null,
      )
      .catch(() => null);
    known.set(id, naming);
  }
  return naming;
}

export function TargetLink({
  client,
  id,
  phone = true,
}: {
  client: CampaignCallingClient;
  id: string;
  phone?: boolean;
}) {
  const [naming, setNaming] = useState<Naming | null>(null);
  useEffect(() => {
    let live = true;
    void readNaming(client, id).then((n) => live && setNaming(n));
    return () => {
      live = false;
    };
  }, [client, id]);
  const beside = phone ? naming?.details : naming?.mrn;
  return (
    <>
      <a href={href.target(id)} data-target-id={id}>
        {naming?.name ?? 'a target'}
      </a>
      {beside ? <span class="muted"> ({beside})</span> : null}
    </>
  );
}
