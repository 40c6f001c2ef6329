import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock/clock.js';
import { Tx, UnitOfWork } from '../../../common/persistence/unit-of-work.js';
import { CampaignReader } from '../../campaign/application/ports/campaign-reader.js';
import { Outbox } from '../../webhook/application/ports/outbox.js';
import { initialState, newTarget, NewTarget, partitionDuplicates } from '../domain/new-targets.js';
import {
  IMPORT_CHUNK_ROWS,
  ImportStatus,
  isFinished,
  TargetImport,
} from '../domain/target-import.js';
import { SYSTEM_ACTOR, TargetEventLog } from './ports/target-event-log.js';
import { TargetImportRepository } from './ports/target-import.repository.js';
import { TargetTransitions } from './ports/target-transitions.js';
import { TargetRepository } from './ports/target.repository.js';

/**
 * Runs a staged CSV import (docs/targets.md, "Import a CSV file"): the checks once, then the rows
 * chunk by chunk, and its end (`import.finished` through the outbox). All or nothing as far as
 * validation goes (any row error: nothing is added) unless `on_error=skip` was chosen (the good rows
 * are added, the bad ones reported), and resumable chunk by chunk. The upload is `TargetImportService`'s.
 */
@Injectable()
export class TargetImportRun {
  private readonly logger = new Logger('TargetImport');

  constructor(
    private readonly imports: TargetImportRepository,
    private readonly targets: TargetRepository,
    private readonly transitions: TargetTransitions,
    private readonly events: TargetEventLog,
    private readonly campaigns: CampaignReader,
    private readonly outbox: Outbox,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Runs (or resumes) an import: the duplicate and id checks once, then the rows chunk by chunk, each
   * chunk's insert and progress in one transaction. Safe to run twice, even at once: a chunk recorded
   * by another run rolls this one's back.
   *
   * allow_duplicates=false is all or nothing even when a chunk loses a race after earlier chunks
   * committed: the import keeps its created rows' staging, so the losing run withdraws the targets it
   * added (with their history) in the transaction that rejects it. No lock is held between chunks, so
   * nothing waits on a long import; and so that nothing is called from a file that may still be
   * rejected, launch=true schedules the earlier chunks' targets only in the last chunk's transaction.
   */
  async process(importId: string): Promise<void> {
    let imp = await this.imports.find(null, importId);
    if (!imp || isFinished(imp.status) || imp.status === 'receiving') return;
    const campaign = await this.campaigns.findById(imp.campaignId);
    if (!campaign) return this.end(imp, 'failed');
    if (imp.status === 'queued') {
      await this.imports.setStatus(null, imp.id, 'running', this.clock.now());
    }
    if (!imp.checked) imp = await this.imports.check(imp.id, this.clock.now());
    // on_error=skip: the bad rows stay reported, and only the good ones are staged for insertion.
    if (imp.invalidRows > 0 && !imp.skipInvalid) return this.end(imp, 'rejected');
    if (imp.dryRun) return this.end(imp, 'succeeded');

    for (;;) {
      const chunk = await this.imports.nextChunk(imp.id, imp.processedThrough, IMPORT_CHUNK_ROWS);
      const current: TargetImport = imp;
      const after = current.processedThrough;
      const last = chunk.length < IMPORT_CHUNK_ROWS;
      const recorded = await this.unitOfWork
        .run(async (tx) => {
          const now = this.clock.now();
          const through = chunk.length > 0 ? chunk[chunk.length - 1].row : after;
          // Claim first: a concurrent run of the same import waits on this row lock, then gives up.
          const claimed = await this.imports.claimChunk(tx, current.id, after, through, now);
          if (!claimed) throw new ChunkTakenError();
          const allOrNothing = !current.allowDuplicates;
          let created = 0;
          let ignored: number[] = [];
          if (chunk.length > 0) {
            const drafts = chunk.map((c) => c.draft);
            // Repeats within the chunk are found here; the campaign's external ids by the insert, which
            // skips them (as adding targets does, see TargetService.addTargets).
            const { keep, duplicates } = partitionDuplicates(drafts, new Set());
            const state = initialState(campaign, current.launch && (!allOrNothing || last), now);
            const owner = { organizationId: current.organizationId, campaignId: campaign.id };
            // The id was chosen at staging, so a rerun inserts the same target.
            const rows: NewTarget[] = keep.map((k) =>
              newTarget(drafts[k], drafts[k].id!, owner, state),
            );
            const inserted = new Set(
              await this.targets.insertMany(tx, rows, {
                now,
                skipTakenExternalIds: true,
                // The import keeps no API key: its rows are the system's, named by the import.
                cause: { actor: SYSTEM_ACTOR, reason: `added by CSV import ${current.id}` },
              }),
            );
            created = inserted.size;
            const taken = keep.filter((k, i) => !inserted.has(rows[i].id)).map((k) => chunk[k].row);
            // allow_duplicates=false: an external id the check did not see (an add or import that
            // committed since) refuses the file, as the check would have; this chunk is undone.
            if (allOrNothing && taken.length > 0) throw new ExternalIdsTakenError(taken);
            // Repeats, and rows whose external id the campaign already holds (added earlier, or by a
            // concurrent add that committed first).
            ignored = [...duplicates.map((d) => chunk[d.index].row), ...taken].sort(
              (a, b) => a - b,
            );
          }
          await this.imports.recordChunk(tx, current.id, after, {
            through,
            rows: chunk.length,
            created,
            ignored,
            keepCreated: allOrNothing,
          });
          if (last && allOrNothing && current.launch) {
            await this.launchCreated(tx, current, after, now);
          }
          if (last) await this.finishIn(tx, current.id, 'succeeded');
          return through;
        })
        .catch((error: unknown) => {
          if (error instanceof ChunkTakenError) return null;
          if (error instanceof ExternalIdsTakenError) return error;
          throw error;
        });
      if (recorded instanceof ExternalIdsTakenError) {
        await this.rejectAfterLostRace(current, recorded.rows);
        return;
      }
      if (recorded === null) {
        // Another run is ahead: it finishes the import.
        this.logger.log({ importId, msg: 'another run is processing this import' });
        return;
      }
      if (last) return;
      imp = { ...current, processedThrough: recorded };
    }
  }

  /**
   * allow_duplicates=false lost a race: in one transaction, the targets its earlier chunks added are
   * withdrawn (with their history, as if never added), the rows whose external id the campaign now
   * holds become row errors, and the import ends `rejected`.
   */
  private async rejectAfterLostRace(imp: TargetImport, taken: number[]): Promise<void> {
    const withdrawn = await this.unitOfWork.run(async (tx) => {
      let withdrawn = 0;
      await this.forEachCreated(tx, imp, imp.processedThrough, async (ids) => {
        const gone = await this.targets.withdrawAdded(tx, imp.organizationId, imp.campaignId, ids);
        withdrawn += gone.length;
      });
      await this.imports.rejectAfterLostRace(tx, imp.id, taken, withdrawn, this.clock.now());
      await this.finishIn(tx, imp.id, 'rejected');
      return withdrawn;
    });
    this.logger.warn(
      { importId: imp.id, taken: taken.length, withdrawn },
      'CSV import lost a race for its external ids: rejected, its targets withdrawn',
    );
  }

  /** launch=true with allow_duplicates=false: the earlier chunks' targets, due now. */
  private async launchCreated(
    tx: Tx,
    imp: TargetImport,
    through: number,
    now: Date,
  ): Promise<void> {
    await this.events.attribute(tx, {
      actor: SYSTEM_ACTOR,
      reason: `launched by CSV import ${imp.id}`,
    });
    await this.forEachCreated(tx, imp, through, (ids) =>
      this.transitions.claimForTrigger(tx, imp.campaignId, { targetIds: ids }, now),
    );
  }

  /** The targets created for rows up to `through` (staging kept), a chunk at a time. */
  private async forEachCreated(
    tx: Tx,
    imp: TargetImport,
    through: number,
    work: (ids: string[]) => Promise<unknown>,
  ): Promise<void> {
    for (let after = 0; ;) {
      const page = await this.imports.createdTargets(tx, imp.id, after, through, IMPORT_CHUNK_ROWS);
      if (page.length === 0) return;
      await work(page.map((p) => p.targetId));
      after = page[page.length - 1].row;
    }
  }

  private async end(imp: TargetImport, status: ImportStatus): Promise<void> {
    await this.unitOfWork.run((tx) => this.finishIn(tx, imp.id, status));
  }

  /** Ends the import and records `import.finished` in the same transaction. */
  private async finishIn(tx: Tx, importId: string, status: ImportStatus): Promise<void> {
    // Everything through `tx`: on PGlite another connection would wait for this transaction.
    const imp = await this.imports.finish(tx, importId, status, this.clock.now());
    if (!imp) return;
    await this.outbox.record(tx, [
      {
        kind: 'import_finished',
        event: {
          organizationId: imp.organizationId,
          campaignId: imp.campaignId,
          importId: imp.id,
          status,
          dryRun: imp.dryRun,
          rows: imp.totalRows,
          invalidRows: imp.invalidRows,
          created: imp.created,
          ignoredRows: imp.ignoredRows,
        },
      },
    ]);
  }
}

class ChunkTakenError extends Error {}

class ExternalIdsTakenError extends Error {
  constructor(readonly rows: number[]) {
    super(`external ids taken since the check, rows ${rows.join(', ')}`);
  }
}
