import { InterruptedError, NotFoundError } from '../../../common/errors/domain-errors.js';
import { SYNC_IMPORT_MAX_ROWS, UploadInterruptedError } from '../domain/target-import.js';
import { IMPORT_QUEUE } from './target-import.service.js';
import {
  CAMPAIGN,
  NOW,
  OPTIONS,
  ORG,
  records,
  setup,
} from '../../../../test/support/target-import-fixture.js';

const OTHER_ORG = '00000000-0000-4000-8000-00000000a002';

describe('TargetImportService', () => {
  it('processes a small file in the request and records import.finished once', async () => {
    const { service, outbox, jobs } = setup();
    const { report, queued } = await service.start(
      ORG,
      CAMPAIGN,
      OPTIONS,
      records(3, (i) => `E${i % 2}`),
    );
    expect(queued).toBe(false);
    expect(report.import).toEqual(
      expect.objectContaining({ status: 'succeeded', totalRows: 3, created: 2, ignoredRows: 1 }),
    );
    expect(report.ignored).toEqual([{ row: 4, externalId: 'E0' }]);
    expect(outbox.of('import_finished')).toEqual([
      {
        organizationId: ORG,
        campaignId: CAMPAIGN,
        importId: report.import.id,
        status: 'succeeded',
        dryRun: false,
        rows: 3,
        invalidRows: 0,
        created: 2,
        ignoredRows: 1,
      },
    ]);
    expect(jobs.jobs).toEqual([]);
  });

  it('rejects a file with a row error and adds nothing', async () => {
    const { service, targets } = setup();
    async function* bad() {
      yield* records(2);
      yield {
        row: 4,
        input: null,
        errors: [
          {
            row: 4,
            column: 'phone_number',
            loc: ['phone_number'],
            type: 'missing',
            msg: 'Field required',
          },
        ],
        idColumn: null,
        externalIdColumn: null,
      };
    }
    const { report } = await service.start(ORG, CAMPAIGN, OPTIONS, bad());
    expect([report.import.status, report.import.invalidRows, report.errors.length]).toEqual([
      'rejected',
      1,
      1,
    ]);
    expect((await targets.list(ORG, CAMPAIGN, {}, { offset: 0, limit: 1 })).total).toBe(0);
  });

  it('an upload that stops before its end: the import ends failed, saying so, with nothing added', async () => {
    const { service, imports, targets, outbox } = setup();
    async function* cut() {
      yield* records(1500);
      throw new UploadInterruptedError();
    }
    const failure =
      'The upload was interrupted after 1500 rows, before the end of the file: nothing was added. Send the file again.';
    await expect(service.start(ORG, CAMPAIGN, OPTIONS, cut())).rejects.toEqual(
      new InterruptedError(failure),
    );
    const [imp] = [...imports.snapshot().imports.values()];
    expect(imp).toMatchObject({ status: 'failed', failure, totalRows: 1500, finishedAt: NOW });
    expect(await imports.nextChunk(imp.id, 0, 10)).toEqual([]);
    expect((await targets.list(ORG, CAMPAIGN, {}, { offset: 0, limit: 1 })).total).toBe(0);
    expect(outbox.of('import_finished')).toEqual([]);
  });

  it('fails the uploads that stopped receiving before a time (their process died)', async () => {
    const { service, imports } = setup();
    const id = '00000000-0000-4000-8000-0000000000f1';
    await imports.create({ id, organizationId: ORG, campaignId: CAMPAIGN, now: NOW, ...OPTIONS });
    expect(await service.failStalledUploads(NOW)).toBe(0);
    expect(await service.failStalledUploads(new Date(NOW.getTime() + 1))).toBe(1);
    expect(await service.report(ORG, id)).toMatchObject({
      import: {
        status: 'failed',
        failure:
          'The upload was interrupted, before the end of the file: nothing was added. Send the file again.',
      },
    });
  });

  it('re-queues stalled imports; another organization cannot read an import', async () => {
    const { service, imports, jobs } = setup();
    // Queued as start leaves a file of more than SYNC_IMPORT_MAX_ROWS rows, its job then lost. Made
    // here, not by a file of 10,001 rows: test/e2e/target-import-chunks.e2e-spec.ts runs such files.
    const importId = '00000000-0000-4000-8000-0000000001f1';
    await imports.create({
      id: importId,
      organizationId: ORG,
      campaignId: CAMPAIGN,
      now: NOW,
      ...OPTIONS,
    });
    await imports.setStatus(null, importId, 'queued', NOW, {
      totalRows: SYNC_IMPORT_MAX_ROWS + 1,
      invalidRows: 0,
    });
    expect(await service.recoverStalled(new Date(NOW.getTime() + 1))).toBe(1);
    expect(jobs.take(IMPORT_QUEUE)).toEqual([{ queue: IMPORT_QUEUE, data: { importId } }]);
    await expect(service.report(OTHER_ORG, importId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.start(OTHER_ORG, CAMPAIGN, OPTIONS, records(1))).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});
