import { readFileSync } from 'fs';
import { join } from 'path';
import {
  ownershipViolations,
  serviceSources,
  tableOwners,
} from '../../scripts/check-table-owners.js';

/** `npm run depcruise` runs scripts/check-table-owners.ts: one module writes each table. */
const ROOT = join(import.meta.dirname, '..', '..');
const owners = tableOwners(readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8'));

describe('table owners', () => {
  it('reads an owner for every table from docs/architecture.md', () => {
    expect(owners.get('targets')).toBe('target');
    expect(owners.get('target_step_events')).toBe('target');
    expect(owners.get('call_logs')).toBe('call-log');
  });

  it('finds no write to a table outside its owning module in src/', () => {
    expect(ownershipViolations(serviceSources(ROOT), owners)).toEqual([]);
  });

  it('fails a write to targets from another module, however it is spelled', () => {
    const snippet = [
      'const a = `UPDATE targets t SET status = $1`;',
      "const b = 'insert into public.targets (id) values ($1)';",
      'const c = `DELETE FROM "targets" WHERE id = $1`;',
      'const d = `MERGE INTO targets t USING x ON true WHEN MATCHED THEN DO NOTHING`;',
    ].join('\n');
    expect(
      ownershipViolations([['src/modules/step/infrastructure/x.ts', snippet]], owners),
    ).toEqual([
      {
        file: 'src/modules/step/infrastructure/x.ts',
        line: 1,
        table: 'targets',
        statement: 'UPDATE',
      },
      {
        file: 'src/modules/step/infrastructure/x.ts',
        line: 2,
        table: 'targets',
        statement: 'INSERT INTO',
      },
      {
        file: 'src/modules/step/infrastructure/x.ts',
        line: 3,
        table: 'targets',
        statement: 'DELETE FROM',
      },
      {
        file: 'src/modules/step/infrastructure/x.ts',
        line: 4,
        table: 'targets',
        statement: 'MERGE INTO',
      },
    ]);
  });

  it('fails a write from shared code, and lets the owner, reads and other tables be', () => {
    const write = 'await q.query(`UPDATE targets SET status = $1`);';
    expect(ownershipViolations([['src/database/x.ts', write]], owners)).toHaveLength(1);
    expect(
      ownershipViolations([['src/modules/target/infrastructure/x.ts', write]], owners),
    ).toEqual([]);
    const notWrites = [
      'SELECT id FROM targets FOR UPDATE',
      'INSERT INTO targets_archive (id) VALUES ($1)',
      'ON CONFLICT (id) DO UPDATE SET input_data = targets.input_data',
    ].join('\n');
    expect(ownershipViolations([['src/modules/step/x.ts', notWrites]], owners)).toEqual([]);
  });
});
