/** Tunables of the engine (from the environment in the app, literals in unit tests). */
export class CallingSettings {
  constructor(
    /** A call whose worker stopped renewing its lease for this long is recovered. */
    readonly callLeaseSeconds: number,
    /** A call not ended after this long is recovered even if its worker still renews the lease. */
    readonly staleCallMinutes: number,
    /**
     * A target waiting for a free slot (campaign at max_concurrent_calls) is woken when a call ends;
     * after this long (plus up to as much jitter) it looks again by itself.
     */
    readonly slotWaitSeconds: number,
    /** A due `Scheduled` target untouched this long gets a new dispatch job (its job died with a worker). */
    readonly overdueGraceSeconds: number,
    /** How often each worker runs the recovery sweep. */
    readonly sweepIntervalSeconds: number,
  ) {}
}
