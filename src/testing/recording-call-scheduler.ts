import { Tx } from '../common/persistence/unit-of-work';
import { CallScheduler, ScheduledCall } from '../modules/target/application/ports/call-scheduler';

/** Records the dispatches asked for; `failWith` makes the next call throw (to test rollback). */
export class RecordingCallScheduler extends CallScheduler {
  readonly scheduled: ScheduledCall[] = [];
  failWith: Error | null = null;

  async scheduleCalls(_tx: Tx, calls: ScheduledCall[]): Promise<void> {
    if (this.failWith) throw this.failWith;
    this.scheduled.push(...calls);
  }
}
