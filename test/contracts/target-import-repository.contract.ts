import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import {
  StagedRow,
  TargetImportRepository,
} from '../../src/modules/target/application/ports/target-import.repository.js';
import { TargetRepository } from '../../src/modules/target/application/ports/target.repository.js';
import { NewTarget } from '../../src/modules/target/domain/new-targets.js';
import { absentFields } from '../../src/modules/target/domain/target-fields.js';

export interface TargetImportContractSetup {
  imports: TargetImportRepository;
  targets: TargetRepository;
  unitOfWork: UnitOfWork;
  tenant(): Promise<{ organizationId: string; campaignId: string }>;
}

const NOW = new Date('2026-03-01T12:00:00.000Z');

function staged(
  row: number,
  externalId: string | null,
  id: string = randomUUID(),
  idColumn: string | null = null,
): StagedRow {
  return {
    row,
    idColumn,
    externalIdColumn: externalId === null ? null : 'external_id',
    errors: null,
    draft: {
      id,
      externalId,
      phoneNumber: `+1555010${String(row).padStart(4, '0')}`,
      phoneOperatingHours: null,
      fallbackPhoneNumber: null,
      fallbackOperatingHours: null,
      patient: null,
      ...absentFields(),
      inputData: { row: String(row) },
    },
  };
}

/** One suite for the fake and the SQL adapter: the import's lifecycle as the service drives it. */
export function targetImportRepositoryContract(
  name: string,
  setup: () => TargetImportContractSetup,
): void {
  describe(`TargetImportRepository contract: ${name}`, () => {
    let s: TargetImportContractSetup;
    beforeEach(() => {
      s = setup();
    });

    async function newImport(options: Partial<{ dryRun: boolean; allowDuplicates: boolean }> = {}) {
      const tenant = await s.tenant();
      const id = randomUUID();
      await s.imports.create({
        id,
        ...tenant,
        now: NOW,
        dryRun: options.dryRun ?? false,
        launch: false,
        allowDuplicates: options.allowDuplicates ?? true,
        skipInvalid: false,
      });
      return { id, ...tenant };
    }

    async function existingTarget(
      tenant: { organizationId: string; campaignId: string },
      externalId: string,
      id: string = randomUUID(),
    ) {
      const target: NewTarget = {
        ...staged(99, externalId, id).draft!,
        organizationId: tenant.organizationId,
        campaignId: tenant.campaignId,
        status: 'Pending',
        currentStep: null,
        scheduledTime: null,
      };
      await s.unitOfWork.run((tx) =>
        s.targets.insertMany(tx, [target], { now: NOW, skipTakenExternalIds: true }),
      );
    }

    it('creates an import visible to its organization only', async () => {
      const imp = await newImport();
      expect(await s.imports.find(imp.organizationId, imp.id)).toEqual({
        id: imp.id,
        organizationId: imp.organizationId,
        campaignId: imp.campaignId,
        status: 'receiving',
        dryRun: false,
        launch: false,
        allowDuplicates: true,
        totalRows: 0,
        invalidRows: 0,
        checked: false,
        processedThrough: 0,
        processedRows: 0,
        created: 0,
        ignoredRows: 0,
        createdAt: NOW,
        updatedAt: NOW,
        finishedAt: null,
        failure: null,
        skipInvalid: false,
        columns: null,
        preview: null,
      });
      const columns = [{ column: 'Phone', field: 'phone_number', source: 'recognised' as const }];
      const preview = [
        {
          row: 2,
          phoneNumber: '+16172531217',
          fallbackPhoneNumber: null,
          externalId: 'MRN-1',
          timeZone: null,
          patient: { first_name: 'Ann', date_of_birth: '1962-03-14' },
          inputData: {},
        },
      ];
      await s.imports.describe(imp.id, columns, preview);
      expect(await s.imports.find(null, imp.id)).toMatchObject({ columns, preview });
      expect(await s.imports.find(randomUUID(), imp.id)).toBeNull();
      expect(await s.imports.find(null, imp.id)).not.toBeNull();
      await s.imports.delete(imp.id);
      expect(await s.imports.find(null, imp.id)).toBeNull();
    });

    it('check marks duplicates (campaign and file) and, without allow_duplicates, makes them errors', async () => {
      const ignoring = await newImport();
      await existingTarget(ignoring, 'IN-CAMPAIGN');
      const rows = [staged(2, 'IN-CAMPAIGN'), staged(3, 'A'), staged(4, 'A'), staged(5, null)];
      await s.imports.stageRows(ignoring.id, rows, NOW);
      const checked = await s.imports.check(ignoring.id, NOW);
      expect([checked.checked, checked.invalidRows]).toEqual([true, 0]);
      // Rows with duplicates stay insertable: the insert ignores them.
      expect((await s.imports.nextChunk(ignoring.id, 0, 10)).map((r) => r.row)).toEqual([
        2, 3, 4, 5,
      ]);

      const strict = await newImport({ allowDuplicates: false });
      await existingTarget(strict, 'IN-CAMPAIGN');
      const takenId = randomUUID();
      await existingTarget(strict, 'OTHER', takenId);
      await s.imports.stageRows(
        strict.id,
        [staged(2, 'IN-CAMPAIGN'), staged(3, 'A'), staged(4, 'A'), staged(5, null, takenId, 'id')],
        NOW,
      );
      const refused = await s.imports.check(strict.id, NOW);
      expect(refused.invalidRows).toBe(3);
      // Checking again changes nothing.
      expect((await s.imports.check(strict.id, NOW)).invalidRows).toBe(3);
      expect(await s.imports.reportRows(strict.id, 100)).toEqual({
        errors: [
          {
            row: 2,
            column: 'external_id',
            loc: ['external_id'],
            type: 'value_error',
            msg: 'Value error, this external id is already in the campaign',
            input: 'IN-CAMPAIGN',
          },
          {
            row: 4,
            column: 'external_id',
            loc: ['external_id'],
            type: 'value_error',
            msg: 'Value error, this external id repeats row 3',
            input: 'A',
          },
          {
            row: 5,
            column: 'id',
            loc: ['id'],
            type: 'value_error',
            msg: 'Value error, a target with this id already exists',
            input: takenId,
          },
        ],
        ignored: [],
      });
    });

    it('keeps the created rows while all or nothing; after a lost race records the taken external ids as the check does', async () => {
      const strict = await newImport({ allowDuplicates: false });
      const rows = [staged(2, 'A'), staged(3, 'B'), staged(4, 'C'), staged(5, 'D'), staged(6, 'E')];
      await s.imports.stageRows(strict.id, rows, NOW);
      expect((await s.imports.check(strict.id, NOW)).invalidRows).toBe(0);
      // The first chunk (rows 2 and 3) was inserted; its staging is kept.
      await existingTarget(strict, 'A', rows[0].draft!.id);
      await existingTarget(strict, 'B', rows[1].draft!.id);
      await s.unitOfWork.run(async (tx) => {
        expect(await s.imports.claimChunk(tx, strict.id, 0, 3, NOW)).toBe(true);
        await s.imports.recordChunk(tx, strict.id, 0, {
          through: 3,
          rows: 2,
          created: 2,
          ignored: [],
          keepCreated: true,
        });
      });
      expect((await s.imports.nextChunk(strict.id, 3, 10)).map((r) => r.row)).toEqual([4, 5, 6]);
      const created = (after: number, limit: number) =>
        s.unitOfWork.run((tx) => s.imports.createdTargets(tx, strict.id, after, 3, limit));
      expect(await created(0, 1)).toEqual([{ row: 2, targetId: rows[0].draft!.id }]);
      expect(await created(2, 10)).toEqual([{ row: 3, targetId: rows[1].draft!.id }]);
      // Another writer added C (the chunk's insert skipped it) and D; B's target could not be withdrawn.
      await existingTarget(strict, 'C');
      await existingTarget(strict, 'D');
      await s.unitOfWork.run((tx) => s.imports.rejectAfterLostRace(tx, strict.id, [4], 1, NOW));
      expect(await s.imports.find(null, strict.id)).toEqual(
        expect.objectContaining({ invalidRows: 2, created: 1, processedRows: 1 }),
      );
      expect((await s.imports.nextChunk(strict.id, 3, 10)).map((r) => r.row)).toEqual([6]);
      expect((await s.imports.reportRows(strict.id, 100)).errors).toEqual(
        ['C', 'D'].map((input, i) => ({
          row: 4 + i,
          column: 'external_id',
          loc: ['external_id'],
          type: 'value_error',
          msg: 'Value error, this external id is already in the campaign',
          input,
        })),
      );
    });

    it('records chunks once, in order, and keeps only error and ignored rows for the report', async () => {
      const imp = await newImport();
      await s.imports.stageRows(imp.id, [staged(2, 'A'), staged(3, 'A'), staged(4, 'B')], NOW);
      await s.imports.setStatus(null, imp.id, 'running', NOW, { totalRows: 3, invalidRows: 0 });
      await s.imports.check(imp.id, NOW);
      const chunk = { through: 3, rows: 2, created: 1, ignored: [3], keepCreated: false };
      const run = (after: number, c: typeof chunk) =>
        s.unitOfWork.run(async (tx) => {
          if (!(await s.imports.claimChunk(tx, imp.id, after, c.through, NOW))) return false;
          await s.imports.recordChunk(tx, imp.id, after, c);
          return true;
        });
      expect(await run(0, chunk)).toBe(true);
      // A second run that read the same progress loses.
      expect(await run(0, chunk)).toBe(false);
      expect((await s.imports.nextChunk(imp.id, 3, 10)).map((r) => r.row)).toEqual([4]);
      expect(
        await run(3, { through: 4, rows: 1, created: 1, ignored: [], keepCreated: false }),
      ).toBe(true);
      const ended = await s.unitOfWork.run((tx) => s.imports.finish(tx, imp.id, 'succeeded', NOW));
      expect(ended).toEqual(
        expect.objectContaining({
          status: 'succeeded',
          totalRows: 3,
          processedThrough: 4,
          processedRows: 3,
          created: 2,
          ignoredRows: 1,
          finishedAt: NOW,
        }),
      );
      expect(
        await s.unitOfWork.run((tx) => s.imports.finish(tx, imp.id, 'failed', NOW)),
      ).toBeNull();
      expect(await s.imports.reportRows(imp.id, 100)).toEqual({
        errors: [],
        ignored: [{ row: 3, externalId: 'A' }],
      });
      expect(await s.imports.nextChunk(imp.id, 0, 10)).toEqual([]);
    });

    it('a dry run ends with the duplicates as ignored', async () => {
      const imp = await newImport({ dryRun: true });
      await s.imports.stageRows(imp.id, [staged(2, 'A'), staged(3, 'A'), staged(4, null)], NOW);
      await s.imports.check(imp.id, NOW);
      const ended = await s.unitOfWork.run((tx) => s.imports.finish(tx, imp.id, 'succeeded', NOW));
      expect([ended?.ignoredRows, ended?.created]).toEqual([1, 0]);
      expect(await s.imports.reportRows(imp.id, 100)).toEqual({
        errors: [],
        ignored: [{ row: 3, externalId: 'A' }],
      });
    });

    it('fails an upload that stopped: by id while receiving, or once no row arrived since a time', async () => {
      const at = (s: number) => new Date(NOW.getTime() + s * 1000);
      const cut = await newImport();
      await s.imports.stageRows(cut.id, [staged(2, 'A'), staged(3, 'B')], at(1));
      expect(await s.imports.find(null, cut.id)).toMatchObject({ updatedAt: at(1) });
      const counts = { totalRows: 2, invalidRows: 0 };
      expect(await s.imports.failUpload(cut.id, 'cut off', at(2), counts)).toBe(true);
      expect(await s.imports.failUpload(cut.id, 'again', at(3), counts)).toBe(false);
      expect(await s.imports.find(null, cut.id)).toMatchObject({
        status: 'failed',
        failure: 'cut off',
        totalRows: 2,
        finishedAt: at(2),
      });
      expect(await s.imports.nextChunk(cut.id, 0, 10)).toEqual([]);

      // Stalled: the one whose last rows came before the limit; not the live one, not a queued one.
      const dead = await newImport();
      await s.imports.stageRows(dead.id, [staged(2, 'A')], at(10));
      const live = await newImport();
      await s.imports.stageRows(live.id, [staged(2, 'A')], at(100));
      const queued = await newImport();
      await s.imports.setStatus(null, queued.id, 'queued', NOW, counts);
      const failed = await s.imports.failStalledUploads(at(50), 'died', at(200), 1000);
      expect(failed).toContain(dead.id);
      expect(failed).not.toContain(live.id);
      expect(failed).not.toContain(queued.id);
      expect(await s.imports.find(null, dead.id)).toMatchObject({
        status: 'failed',
        failure: 'died',
        totalRows: 1,
        invalidRows: 0,
        finishedAt: at(200),
      });
      expect(await s.imports.find(null, live.id)).toMatchObject({ status: 'receiving' });
      expect(await s.imports.failStalledUploads(at(50), 'died', at(300), 1000)).not.toContain(
        dead.id,
      );
    });

    it('claims stalled queued or running imports once', async () => {
      const imp = await newImport();
      await s.imports.setStatus(null, imp.id, 'queued', NOW, { totalRows: 1, invalidRows: 0 });
      const later = new Date(NOW.getTime() + 120_000);
      const claim = () =>
        s.unitOfWork.run((tx) =>
          s.imports.claimStalled(tx, new Date(NOW.getTime() + 60_000), later, 1000),
        );
      expect(await claim()).toContain(imp.id);
      expect(await claim()).not.toContain(imp.id);
    });
  });
}
