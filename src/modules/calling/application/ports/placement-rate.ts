import { Tx } from '../../../../common/persistence/unit-of-work.js';

/** CALLS_PER_SECOND, shared by every worker: a per-second budget per provider. */
export abstract class PlacementRate {
  /**
   * Takes up to `wanted` placements from the provider's budget for the second of `now` (`limit` per
   * second); returns how many it granted (0..wanted).
   */
  abstract take(
    tx: Tx,
    provider: string,
    wanted: number,
    limit: number,
    now: Date,
  ): Promise<number>;
}
