/**
 * Errors that application services throw. They know nothing about HTTP: the global exception filter
 * maps each code to a status (an exhaustive `switch`, so a new code without a mapping fails to
 * compile), and a service can be reused from a CLI or a worker unchanged.
 */
export type DomainErrorCode =
  | 'not_found'
  | 'conflict'
  | 'invalid_input'
  | 'unauthorized'
  | 'forbidden'
  | 'too_many_attempts'
  | 'interrupted'
  | 'package_missing';

export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
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

/**
 * Where a bad value sits in the input the service was given, in domain terms:
 * `['targets', 3, 'phone_number']`, `['friendly_id']`, or `[]` for the input as a whole. Never an HTTP
 * location (`body`, `query`, `path`): the HTTP layer adds that (see `http-exception.filter.ts`).
 */
export type FieldPath = (string | number)[];

/** Input that passed DTO validation but breaks a rule only the service can check. */
export class InvalidInputError extends DomainError {
  readonly code = 'invalid_input';
  constructor(
    message: string,
    readonly field: FieldPath,
    readonly input?: unknown,
  ) {
    super(message);
  }
}

export class UnauthorizedError extends DomainError {
  readonly code = 'unauthorized';
}

/** The credential is known but its role (or its campaign scope) does not allow the action. */
export class ForbiddenError extends DomainError {
  readonly code = 'forbidden';
}

/** Refused for a while after too many failures (sign-ins): `retryAfterSeconds` says how long. */
export class TooManyAttemptsError extends DomainError {
  readonly code = 'too_many_attempts';
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** The input stopped before its end (an upload cut off): nothing was done with it. */
export class InterruptedError extends DomainError {
  readonly code = 'interrupted';
}

/**
 * An optional npm package the request needs is not installed where the service runs (a provider's
 * SDK: see docs/providers.md). The operator fixes it (`npm install <package>`); the client cannot.
 */
export class PackageMissingError extends DomainError {
  readonly code = 'package_missing';
  constructor(
    readonly packageName: string,
    /** What needs it, for the message: `connections of type 'twilio'`. */
    neededBy: string,
  ) {
    super(
      `${neededBy} need the npm package '${packageName}', which is not installed: ` +
        `run \`npm install ${packageName}\` where the service runs`,
    );
  }
}
