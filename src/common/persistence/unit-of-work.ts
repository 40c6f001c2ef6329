/**
 * A transaction, opaque to application code: services pass it from `UnitOfWork.run` to the ports that
 * must write in it (repositories, the job queue), so a state change and the job it causes commit or
 * roll back together. Only adapters look inside.
 */
export interface Tx {
  readonly __brand: 'Tx';
}

export abstract class UnitOfWork {
  abstract run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}
