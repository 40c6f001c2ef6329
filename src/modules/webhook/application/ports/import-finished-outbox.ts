import { Tx } from '../../../../common/persistence/unit-of-work.js';

/** `import.finished`: a CSV import of targets ended (docs/webhooks.md). Counts only, no personal data. */
export interface ImportFinishedEvent {
  organizationId: string;
  campaignId: string;
  importId: string;
  /** `succeeded`, `rejected` (rows with errors: nothing added) or `failed`. */
  status: string;
  dryRun: boolean;
  rows: number;
  invalidRows: number;
  created: number;
  ignoredRows: number;
}

/** Records the event in the outbox, in the transaction that finishes the import. */
export abstract class ImportFinishedOutbox {
  abstract record(tx: Tx, event: ImportFinishedEvent): Promise<void>;
}
