/** What a pre-dial check is told about a call the dispatcher is about to place. */
export interface PreDialCall {
  organizationId: string;
  campaignId: string;
  targetId: string;
  /** The number to be dialled (E.164). */
  to: string;
  /** The attempt this call would be (1 for the first). */
  attempt: number;
  inputData: Record<string, unknown>;
}

/**
 * A check's answer for one call: place it; wait until a later time (the target stays `Scheduled`,
 * held by the check); or never call (the target ends without a call, as do-not-call ends it). The
 * reason is shown in the target's `waiting_reason` and timeline.
 */
export type PreDialVerdict =
  | { action: 'call' }
  | { action: 'defer'; until: Date; reason: string }
  | { action: 'refuse'; reason: string };

/**
 * A team's own consent or eligibility rule, consulted by the dispatcher before every call, after the
 * calling rules and blacklists allowed it and before the claim's transaction opens (so a slow check
 * holds no database lock). Registered with `CampaignCallingModule.forRoot({ preDialChecks: [...] })`.
 * Throwing defers the calls it was asked about by a minute: a check that is down never lets a call
 * through that it would refuse.
 */
export abstract class PreDialCheck {
  /** Short and stable: the rule name shown in the target's hold and the campaign's held counts. */
  abstract readonly name: string;
  /** One verdict per call, in order. */
  abstract check(calls: PreDialCall[], now: Date): Promise<PreDialVerdict[]>;
}

/** The registered checks, in the order they are consulted (the first that holds a call wins). */
export class PreDialChecks {
  constructor(readonly checks: readonly PreDialCheck[] = []) {}
}
