import { Tx } from '../../../../common/persistence/unit-of-work';
import { CallLog, CallLogCompletion, NewCallLog } from '../../domain/call-log';

export interface CallLogFilter {
  organizationId: string;
  campaignId?: string | null;
  from?: Date | null;
  to?: Date | null;
}

export interface RecoverableCall {
  callLogId: number;
  targetId: string;
}

export abstract class CallLogRepository {
  /** Inserts the log and returns its id (a database sequence: increasing, never reused). */
  abstract create(tx: Tx, log: NewCallLog): Promise<number>;
  /** Fills the outcome of a call that has not ended yet; false when it already ended (idempotent). */
  abstract complete(tx: Tx, id: number, completion: CallLogCompletion): Promise<boolean>;
  /** Extends the lease of a call that is still owned (lease set); false once it is not. */
  abstract renewLease(id: number, until: Date): Promise<boolean>;
  abstract releaseLease(tx: Tx, id: number): Promise<void>;
  /** Calls whose lease has run out, or that started before `startedBefore` and have not ended. */
  abstract findRecoverable(
    now: Date,
    startedBefore: Date,
    limit: number,
  ): Promise<RecoverableCall[]>;
  abstract findById(id: number): Promise<CallLog | null>;
  /** Ordered by id; `total` counts every match. */
  abstract list(
    filter: CallLogFilter,
    offset: number,
    limit: number,
  ): Promise<{ items: CallLog[]; total: number }>;
}
