import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Tx } from '../../../common/persistence/unit-of-work.js';
import { sqlExecutor } from '../../../database/sql.js';
import { PlacementRate } from '../application/ports/placement-rate.js';

/**
 * One row per provider: the current second and how many placements it has granted. One upsert takes
 * from the budget; its row lock serialises the claimers of one provider until their (short) claim
 * transaction commits.
 */
@Injectable()
export class SqlPlacementRate extends PlacementRate {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async take(tx: Tx, provider: string, wanted: number, limit: number, now: Date): Promise<number> {
    if (wanted <= 0) return 0;
    const second = new Date(Math.floor(now.getTime() / 1000) * 1000);
    // In DO UPDATE, `r` is the current row (locked, latest version) and every SET expression reads
    // its values before the update: last_granted is what this statement took.
    const { rows } = await sqlExecutor(this.dataSource, tx).query<{ granted: number }>(
      `INSERT INTO call_placement_rate AS r (provider, window_start, placed, last_granted)
       VALUES ($1, $2, LEAST($3::int, $4::int), LEAST($3::int, $4::int))
       ON CONFLICT (provider) DO UPDATE SET
         placed = CASE WHEN r.window_start = $2
                       THEN r.placed + GREATEST(0, LEAST($3::int, $4::int - r.placed))
                       ELSE LEAST($3::int, $4::int) END,
         last_granted = CASE WHEN r.window_start = $2
                             THEN GREATEST(0, LEAST($3::int, $4::int - r.placed))
                             ELSE LEAST($3::int, $4::int) END,
         window_start = $2
       RETURNING last_granted AS granted`,
      [provider, second, wanted, limit],
    );
    return Math.max(0, rows[0]?.granted ?? 0);
  }
}
