/**
 * Errors that application services throw. They know nothing about HTTP: the global exception filter
 * maps each kind to a status code, so a service can be reused from a CLI or a worker unchanged.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The resource does not exist, or belongs to another organization (existence is never revealed). */
export class NotFoundError extends DomainError {
  readonly code = 'not_found';
}

/** The request is well-formed but clashes with the current state (duplicate id, started target, ...). */
export class ConflictError extends DomainError {
  readonly code = 'conflict';
}

/** A request that passed DTO validation but breaks a rule only the service can check. */
export class InvalidInputError extends DomainError {
  readonly code = 'invalid_input';
  constructor(
    message: string,
    /** Where the bad value sits, FastAPI style: ['body', 'updates', 3]. */
    readonly loc: (string | number)[],
    readonly input?: unknown,
  ) {
    super(message);
  }
}

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
}
