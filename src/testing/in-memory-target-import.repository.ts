import { Tx } from '../common/persistence/unit-of-work.js';
import {
  ChunkRow,
  ImportChunkResult,
  ImportCounts,
  NewImport,
  StagedRow,
  TargetImportRepository,
} from '../modules/target/application/ports/target-import.repository.js';
import { TargetRepository } from '../modules/target/application/ports/target.repository.js';
import {
  ImportStatus,
  isFinished,
  PreviewRow,
  ReportRows,
  RowError,
  TargetImport,
} from '../modules/target/domain/target-import.js';
import type { ImportColumn } from '../modules/target/domain/import-columns.js';
import { Snapshottable } from './in-memory-unit-of-work.js';
import { clone } from './in-memory-rows.js';

interface Row extends StagedRow {
  /** Kept when the draft is dropped, as the adapter's `external_id` column. */
  externalId: string | null;
  duplicate: boolean;
  ignored: boolean;
}

interface State {
  imports: Map<string, TargetImport>;
  rows: Map<string, Map<number, Row>>;
}

/** A value error at the row's `id` or `external_id`, as the adapter's check writes one. */
function valueError(row: Row, field: 'id' | 'external_id', why: string): RowError {
  const id = field === 'id';
  return {
    row: row.row,
    column: id ? row.idColumn : row.externalIdColumn,
    loc: [field],
    type: 'value_error',
    msg: `Value error, ${why}`,
    input: id ? row.draft!.id : row.externalId,
  };
}

const ALREADY_IN_CAMPAIGN = 'this external id is already in the campaign';

/**
 * TargetImportRepository in memory. It reads the campaign's targets through the TargetRepository it
 * is given (the fake of the same module), as the adapter joins the `targets` table.
 */
export class InMemoryTargetImportRepository
  extends TargetImportRepository
  implements Snapshottable<State>
{
  private state: State = { imports: new Map(), rows: new Map() };

  constructor(private readonly targets: TargetRepository) {
    super();
  }

  async create({ now, ...given }: NewImport): Promise<void> {
    this.state.imports.set(given.id, {
      ...given,
      status: 'receiving',
      totalRows: 0,
      invalidRows: 0,
      checked: false,
      processedThrough: 0,
      processedRows: 0,
      created: 0,
      ignoredRows: 0,
      createdAt: now,
      updatedAt: now,
      finishedAt: null,
      failure: null,
      columns: null,
      preview: null,
    });
    this.state.rows.set(given.id, new Map());
  }

  async describe(importId: string, columns: ImportColumn[] | null, preview: PreviewRow[]) {
    const imp = this.state.imports.get(importId);
    if (imp) Object.assign(imp, clone({ columns, preview }));
  }

  async stageRows(importId: string, rows: StagedRow[], now: Date): Promise<void> {
    const staged = this.state.rows.get(importId);
    if (!staged || rows.length === 0) return;
    const imp = this.state.imports.get(importId)!;
    if (imp.status === 'receiving') imp.updatedAt = now;
    for (const row of rows) {
      if (!staged.has(row.row)) {
        const externalId = row.draft?.externalId ?? null;
        staged.set(row.row, { ...clone(row), externalId, duplicate: false, ignored: false });
      }
    }
  }

  async delete(importId: string): Promise<void> {
    this.state.imports.delete(importId);
    this.state.rows.delete(importId);
  }

  async setStatus(
    _tx: Tx | null,
    importId: string,
    status: ImportStatus,
    now: Date,
    counts?: ImportCounts,
  ): Promise<void> {
    const imp = this.state.imports.get(importId);
    if (!imp || isFinished(imp.status)) return;
    Object.assign(imp, { status, updatedAt: now, ...counts });
  }

  async find(organizationId: string | null, importId: string): Promise<TargetImport | null> {
    const imp = this.state.imports.get(importId);
    if (!imp || (organizationId !== null && imp.organizationId !== organizationId)) return null;
    return clone(imp);
  }

  async rejectAfterLostRace(
    tx: Tx,
    importId: string,
    taken: number[],
    withdrawn: number,
    now: Date,
  ): Promise<void> {
    const imp = this.state.imports.get(importId);
    if (!imp) return;
    const valid = this.sorted(importId).filter((r) => r.errors === null && r.externalId !== null);
    const inCampaign = await this.targets.findExistingExternalIds(
      tx,
      imp.campaignId,
      valid.map((r) => r.externalId!),
    );
    // A row's own target (one that could not be withdrawn) does not make it a duplicate.
    const own = await this.targets.findExistingIds(
      tx,
      imp.organizationId,
      valid.flatMap((r) => (r.draft ? [r.draft.id] : [])),
    );
    let marked = 0;
    for (const row of valid) {
      const ownTarget = row.draft !== null && own.has(row.draft.id);
      if (!taken.includes(row.row) && !(inCampaign.has(row.externalId!) && !ownTarget)) continue;
      row.errors = [valueError(row, 'external_id', ALREADY_IN_CAMPAIGN)];
      row.duplicate = true;
      row.draft = null;
      marked++;
    }
    Object.assign(imp, {
      updatedAt: now,
      invalidRows: imp.invalidRows + marked,
      created: imp.created - withdrawn,
      processedRows: imp.processedRows - withdrawn,
    });
  }

  async createdTargets(_tx: Tx, importId: string, after: number, through: number, limit: number) {
    return this.sorted(importId)
      .filter(
        (r) =>
          r.row > after && r.row <= through && r.errors === null && !r.ignored && r.draft !== null,
      )
      .slice(0, limit)
      .map((r) => ({ row: r.row, targetId: r.draft!.id }));
  }

  async check(importId: string, now: Date): Promise<TargetImport> {
    const imp = this.state.imports.get(importId);
    if (!imp) throw new Error(`Import ${importId} vanished`);
    if (imp.checked) return clone(imp);
    const valid = this.sorted(importId).filter((r) => r.errors === null && r.draft !== null);
    const externalIds = valid.flatMap((r) => (r.draft!.externalId ? [r.draft!.externalId] : []));
    const inCampaign = await this.targets.findExistingExternalIds(
      null,
      imp.campaignId,
      externalIds,
    );
    const callerIds = valid.filter((r) => r.idColumn !== null).map((r) => r.draft!.id);
    const taken = await this.targets.findExistingIds(null, imp.organizationId, callerIds);
    const firstExt = new Map<string, number>();
    const firstId = new Map<string, number>();
    let invalid = 0;
    for (const row of valid) {
      const draft = row.draft!;
      const ext = draft.externalId;
      const firstE = ext === null ? undefined : firstExt.get(ext);
      if (ext !== null && firstE === undefined) firstExt.set(ext, row.row);
      const firstI = row.idColumn === null ? undefined : firstId.get(draft.id);
      if (row.idColumn !== null && firstI === undefined) firstId.set(draft.id, row.row);
      const duplicate = ext !== null && (firstE !== undefined || inCampaign.has(ext));
      const errors: RowError[] = [];
      if (row.idColumn !== null && taken.has(draft.id)) {
        errors.push(valueError(row, 'id', 'a target with this id already exists'));
      } else if (firstI !== undefined) {
        errors.push(valueError(row, 'id', `this id repeats row ${firstI}`));
      }
      if (duplicate && !imp.allowDuplicates) {
        const repeated = firstE !== undefined;
        const why = repeated ? `this external id repeats row ${firstE}` : ALREADY_IN_CAMPAIGN;
        errors.push(valueError(row, 'external_id', why));
      }
      row.duplicate = duplicate;
      if (errors.length > 0) {
        row.errors = errors;
        row.draft = null;
        invalid++;
      }
    }
    Object.assign(imp, { checked: true, updatedAt: now, invalidRows: imp.invalidRows + invalid });
    return clone(imp);
  }

  async nextChunk(importId: string, after: number, limit: number): Promise<ChunkRow[]> {
    return this.sorted(importId)
      .filter((r) => r.row > after && r.errors === null && r.draft !== null)
      .slice(0, limit)
      .map((r) => ({ row: r.row, draft: clone(r.draft!) }));
  }

  async claimChunk(_tx: Tx, importId: string, after: number, through: number, now: Date) {
    const imp = this.state.imports.get(importId);
    if (!imp || imp.processedThrough !== after || isFinished(imp.status)) return false;
    Object.assign(imp, { processedThrough: through, updatedAt: now });
    return true;
  }

  async recordChunk(_tx: Tx, importId: string, after: number, chunk: ImportChunkResult) {
    const imp = this.state.imports.get(importId);
    if (!imp) return;
    Object.assign(imp, {
      processedRows: imp.processedRows + chunk.rows,
      created: imp.created + chunk.created,
      ignoredRows: imp.ignoredRows + chunk.ignored.length,
    });
    const rows = this.state.rows.get(importId)!;
    const ignored = new Set(chunk.ignored);
    for (const row of [...rows.values()]) {
      if (ignored.has(row.row)) {
        row.ignored = true;
        row.draft = null;
      } else if (
        !chunk.keepCreated &&
        row.row > after &&
        row.row <= chunk.through &&
        row.errors === null
      ) {
        rows.delete(row.row);
      }
    }
  }

  async finish(_tx: Tx, importId: string, status: ImportStatus, now: Date) {
    const imp = this.state.imports.get(importId);
    if (!imp || isFinished(imp.status)) return null;
    Object.assign(imp, { status, finishedAt: now, updatedAt: now });
    const rows = this.state.rows.get(importId)!;
    if (imp.dryRun && imp.allowDuplicates) {
      let ignored = 0;
      for (const row of rows.values()) {
        if (row.duplicate && row.errors === null) {
          row.ignored = true;
          ignored++;
        }
      }
      imp.ignoredRows = ignored;
    }
    for (const row of [...rows.values()]) {
      if (row.errors === null && !row.ignored) rows.delete(row.row);
      else row.draft = null;
    }
    return clone(imp);
  }

  async failUpload(importId: string, failure: string, now: Date, counts: ImportCounts) {
    const imp = this.state.imports.get(importId);
    if (!imp || imp.status !== 'receiving') return false;
    this.fail(imp, failure, now, counts);
    return true;
  }

  async failStalledUploads(before: Date, failure: string, now: Date, limit: number) {
    const stalled = this.notUpdatedSince(['receiving'], before, limit);
    for (const imp of stalled) {
      const staged = this.sorted(imp.id);
      const invalidRows = staged.filter((r) => r.errors !== null).length;
      this.fail(imp, failure, now, { totalRows: staged.length, invalidRows });
    }
    return stalled.map((i) => i.id);
  }

  async claimStalled(_tx: Tx, before: Date, now: Date, limit: number): Promise<string[]> {
    const stalled = this.notUpdatedSince(['queued', 'running'], before, limit);
    for (const imp of stalled) imp.updatedAt = now;
    return stalled.map((i) => i.id);
  }

  async reportRows(importId: string, limit: number): Promise<ReportRows> {
    const rows = this.sorted(importId);
    return {
      errors: rows
        .filter((r) => r.errors !== null)
        .slice(0, limit)
        .flatMap((r) => clone(r.errors!)),
      ignored: rows
        .filter((r) => r.ignored)
        .slice(0, limit)
        .map((r) => ({ row: r.row, externalId: r.externalId as string })),
    };
  }

  /**
   * Every change here replaces an import's or a row's field (a row's errors and draft included), never
   * changes a field's value in place: copying the objects is a snapshot, at a fraction of a deep
   * clone's cost (every unit of work takes one, and an import of 10,000 rows runs many).
   */
  snapshot(): State {
    return {
      imports: new Map([...this.state.imports].map(([id, imp]) => [id, { ...imp }])),
      rows: new Map(
        [...this.state.rows].map(([id, rows]) => [
          id,
          new Map([...rows].map(([row, staged]) => [row, { ...staged }])),
        ]),
      ),
    };
  }

  /** Puts back a snapshot, which is the unit of work's alone and not used again. */
  restore(state: State): void {
    this.state = state;
  }

  /** Ends an import `failed` with `failure` and its row counts, dropping its staged rows. */
  private fail(imp: TargetImport, failure: string, now: Date, counts: ImportCounts): void {
    Object.assign(imp, { status: 'failed', failure, updatedAt: now, finishedAt: now, ...counts });
    this.state.rows.set(imp.id, new Map());
  }

  /** The imports in `statuses` not updated since `before`, longest idle first, at most `limit`. */
  private notUpdatedSince(statuses: ImportStatus[], before: Date, limit: number): TargetImport[] {
    return [...this.state.imports.values()]
      .filter((i) => statuses.includes(i.status) && i.updatedAt < before)
      .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime())
      .slice(0, limit);
  }

  private sorted(importId: string): Row[] {
    return [...(this.state.rows.get(importId)?.values() ?? [])].sort((a, b) => a.row - b.row);
  }
}
