/**
 * TargetImportService on the in-memory fakes, with files above the synchronous limit: queued, run as a
 * job, chunk by chunk. Here rather than in the unit project because such a file is 15,000 rows and the
 * fakes copy their tables for every unit of work (seconds a test); the small files' cases are in
 * src/modules/target/application/target-import.service.spec.ts, the same on a database in
 * target-import.e2e-spec.ts.
 */
import { InMemoryTargetRepository } from '../../src/testing/in-memory-target.repository.js';
import { aNewTarget } from '../../src/testing/test-data.js';
import {
  IMPORT_CHUNK_ROWS,
  SYNC_IMPORT_MAX_ROWS,
} from '../../src/modules/target/domain/target-import.js';
import { IMPORT_QUEUE } from '../../src/modules/target/application/target-import.service.js';
import { CAMPAIGN, NOW, OPTIONS, ORG, records, setup } from '../support/target-import-fixture.js';

describe('TargetImportService, files of several chunks (in-memory fakes)', () => {
  it('queues a large file; the job is safe to run twice', async () => {
    const { service, run, outbox, jobs, targets } = setup();
    const rows = SYNC_IMPORT_MAX_ROWS + IMPORT_CHUNK_ROWS + 7;
    const { report, queued } = await service.start(ORG, CAMPAIGN, OPTIONS, records(rows));
    expect([queued, report.import.status]).toEqual([true, 'queued']);
    const [job] = jobs.take(IMPORT_QUEUE) as { queue: string; data: { importId: string } }[];
    // The in-memory unit of work is not isolated, so runs at once are tested on a database (e2e).
    await run.process(job.data.importId);
    await run.process(job.data.importId);
    const done = await service.report(ORG, report.import.id);
    expect(done.import).toEqual(
      expect.objectContaining({ status: 'succeeded', processedRows: rows, created: rows }),
    );
    const listed = await targets.list(ORG, CAMPAIGN, {}, { offset: 0, limit: 1 });
    expect(listed.total).toBe(rows);
    expect(outbox.of('import_finished').map((e) => e.status)).toEqual(['succeeded']);
  });

  describe('allow_duplicates=false across chunks', () => {
    const STRICT = { ...OPTIONS, allowDuplicates: false };
    const ROWS = SYNC_IMPORT_MAX_ROWS + IMPORT_CHUNK_ROWS + 7;

    /** Runs the queued import; once its first chunk is recorded, `between` runs (another writer). */
    async function runWith(
      s: ReturnType<typeof setup>,
      options: typeof STRICT,
      between: () => Promise<void>,
    ) {
      const { report } = await s.service.start(ORG, CAMPAIGN, options, records(ROWS));
      const recordChunk = s.imports.recordChunk.bind(s.imports);
      let chunks = 0;
      s.imports.recordChunk = async (...args) => {
        await recordChunk(...args);
        if (++chunks === 1) await between();
      };
      await s.run.process(report.import.id);
      return s.service.report(ORG, report.import.id);
    }

    const statuses = (targets: InMemoryTargetRepository) =>
      new Set(targets.all().map((t) => t.status));

    it('a chunk that loses a race withdraws the targets of the chunks before it: rejected, nothing added', async () => {
      const s = setup();
      const seen: Set<string>[] = [];
      const done = await runWith(s, { ...STRICT, launch: true }, async () => {
        // The first chunk's targets wait for the last chunk to be launched.
        seen.push(statuses(s.targets));
        // Another add commits an external id of the second chunk.
        const taken = IMPORT_CHUNK_ROWS + 10;
        await s.targets.insertMany(
          null as never,
          [
            aNewTarget({
              organizationId: ORG,
              campaignId: CAMPAIGN,
              externalId: `EXT-${taken}`,
              phoneNumber: '+15550109999',
            }),
          ],
          { now: NOW, skipTakenExternalIds: true },
        );
      });
      expect(seen).toEqual([new Set(['Pending'])]);
      expect(done.import).toEqual(
        expect.objectContaining({
          status: 'rejected',
          processedRows: 0,
          created: 0,
          invalidRows: 1,
        }),
      );
      expect(done.errors).toEqual([
        {
          row: IMPORT_CHUNK_ROWS + 12,
          column: 'external_id',
          loc: ['external_id'],
          type: 'value_error',
          msg: 'Value error, this external id is already in the campaign',
          input: `EXT-${IMPORT_CHUNK_ROWS + 10}`,
        },
      ]);
      expect(s.targets.all().map((t) => t.externalId)).toEqual([`EXT-${IMPORT_CHUNK_ROWS + 10}`]);
      expect(s.outbox.of('import_finished').map((e) => [e.status, e.created])).toEqual([
        ['rejected', 0],
      ]);
    });

    it('unraced, every row is added and launch=true schedules them all with the last chunk', async () => {
      const s = setup();
      const seen: Set<string>[] = [];
      const done = await runWith(s, { ...STRICT, launch: true }, async () => {
        seen.push(statuses(s.targets));
      });
      expect(seen).toEqual([new Set(['Pending'])]);
      expect(done.import).toEqual(
        expect.objectContaining({ status: 'succeeded', processedRows: ROWS, created: ROWS }),
      );
      expect(statuses(s.targets)).toEqual(new Set(['Scheduled']));
      expect(s.targets.all()).toHaveLength(ROWS);
      expect(await s.imports.createdTargets(null as never, done.import.id, 0, ROWS + 2, 1)).toEqual(
        [],
      );
    });
  });
});
