import {
  DestinationPolicy,
  RefusedDestinationError,
  resolveDestination,
  systemResolve,
  withDeadline,
} from '../../../common/net/outbound-destination.js';
import { ProviderDestinations } from '../application/ports/provider-destinations.js';

/** A save is not held up longer than this by a slow resolver. */
const SAVE_LOOKUP_MS = 5000;

/** Resolves the host now and checks every address under the policy (`resolveDestination`). */
export class ResolvingProviderDestinations extends ProviderDestinations {
  constructor(private readonly policy: DestinationPolicy) {
    super();
  }

  async refusal(url: string): Promise<string | null> {
    if (this.policy.allowPrivate) return null;
    const resolve = this.policy.resolve ?? systemResolve;
    const deadline = Date.now() + SAVE_LOOKUP_MS;
    try {
      await resolveDestination(new URL(url), {
        ...this.policy,
        resolve: (host) => withDeadline(resolve(host), deadline, 'DNS lookup'),
      });
      return null;
    } catch (err) {
      if (err instanceof RefusedDestinationError) return err.message;
      // A host that does not resolve now is not refused for it: each connect checks it again.
      return null;
    }
  }
}
