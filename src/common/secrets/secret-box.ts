import { ConflictError } from '../errors/domain-errors.js';

/** A secret as stored: ciphertext plus the id of the key that sealed it (so keys can be rotated). */
export interface SealedSecret {
  keyId: string;
  ciphertext: string;
}

/**
 * Authenticated encryption of secrets at rest. `context` binds a ciphertext to its owner (e.g. the
 * connection id): a ciphertext copied onto another row does not open.
 */
export abstract class SecretBox {
  /** Throws `SecretsKeyMissingError` when no key is configured. */
  abstract seal(plaintext: string, context: string): SealedSecret;
  /** Throws `SecretUnreadableError` when the configured key cannot open it. */
  abstract open(sealed: SealedSecret, context: string): string;
}

/**
 * Secrets cannot be stored because no key is configured. A conflict with the server's state (409), not
 * a bad request: the same request succeeds once the operator sets SECRETS_KEY.
 */
export class SecretsKeyMissingError extends ConflictError {
  constructor() {
    super(
      'Cannot store credentials: SECRETS_KEY is not set. Set SECRETS_KEY to a 32-byte key ' +
        '(64 hex characters or base64, e.g. `openssl rand -base64 32`) and restart the service.',
    );
  }
}

/**
 * Stored credentials cannot be opened with the configured key (none set, another key, or a damaged
 * ciphertext). Like a missing key, a clash with the server's configuration (409), never a 500: the
 * operator restores the SECRETS_KEY that sealed them, or re-enters the credentials.
 */
export class SecretUnreadableError extends ConflictError {
  constructor(reason: string) {
    super(`Stored credentials cannot be read: ${reason}`);
  }
}
