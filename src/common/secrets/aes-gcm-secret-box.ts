import { Logger } from '@nestjs/common';
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'fs';
import { dirname, resolve } from 'path';
import {
  SealedSecret,
  SecretBox,
  SecretsKeyMissingError,
  SecretUnreadableError,
} from './secret-box.js';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = 'v1';

/** SECRETS_KEY as 64 hex characters or base64 of 32 bytes; null when it is neither. */
export function parseSecretsKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const key = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    return key.length === KEY_BYTES ? key : null;
  }
  return null;
}

/** Names a key without revealing it: stored beside each ciphertext, so keys can be rotated. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('secrets-key-id:').update(key).digest('hex').slice(0, 16);
}

/** Where the key comes from: SECRETS_KEY, or on the embedded demo a generated one. */
export type SecretsKeySource =
  | { kind: 'configured'; key: Buffer }
  | { kind: 'generated-file'; path: string }
  | { kind: 'generated-memory' }
  | { kind: 'none' };

/**
 * AES-256-GCM with a random 96-bit IV per secret; the context is authenticated data. Stored as
 * `v1:<iv>:<tag>:<ciphertext>` (base64) with the key id beside it.
 */
export class AesGcmSecretBox extends SecretBox {
  private readonly logger = new Logger('Secrets');
  private key: Buffer | null | undefined;

  constructor(private readonly source: SecretsKeySource) {
    super();
  }

  seal(plaintext: string, context: string): SealedSecret {
    const key = this.currentKey();
    if (!key) throw new SecretsKeyMissingError();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64'));
    return { keyId: keyIdOf(key), ciphertext: [FORMAT, ...parts].join(':') };
  }

  open(sealed: SealedSecret, context: string): string {
    const key = this.currentKey();
    if (!key) throw new SecretUnreadableError('SECRETS_KEY is not set');
    if (sealed.keyId !== keyIdOf(key)) {
      throw new SecretUnreadableError(
        `they were sealed with key ${sealed.keyId}, but SECRETS_KEY is key ${keyIdOf(key)}`,
      );
    }
    const [format, iv, tag, ciphertext] = sealed.ciphertext.split(':');
    if (format !== FORMAT) throw new SecretUnreadableError(`unknown secret format ${format}`);
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      // GCM's tag check: the ciphertext was altered, or belongs to another row (context).
      throw new SecretUnreadableError('the ciphertext does not authenticate');
    }
  }

  /** Resolved on first use, so a process that never stores a secret never writes a key file. */
  private currentKey(): Buffer | null {
    if (this.key === undefined) this.key = this.loadKey();
    return this.key;
  }

  private loadKey(): Buffer | null {
    switch (this.source.kind) {
      case 'configured':
        return this.source.key;
      case 'none':
        return null;
      case 'generated-memory':
        this.logger.warn(
          'SECRETS_KEY is not set: provider credentials are encrypted with a key that lives only ' +
            'in this process (in-memory database). Set SECRETS_KEY for anything but a demo.',
        );
        return randomBytes(KEY_BYTES);
      case 'generated-file':
        return this.keyFromFile(this.source.path);
    }
  }

  private keyFromFile(path: string): Buffer {
    try {
      const existing = parseSecretsKey(readFileSync(path, 'utf8'));
      if (!existing) throw new Error(`${path} does not hold a 32-byte key`);
      return existing;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const key = randomBytes(KEY_BYTES);
    mkdirSync(dirname(path), { recursive: true });
    // `wx`: if another process won the race, its key is the one to use.
    try {
      writeFileSync(path, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return this.keyFromFile(path);
      throw err;
    }
    this.logger.warn(
      `SECRETS_KEY is not set: generated a key for provider credentials in ${path} (embedded ` +
        'database only). Keep that file with the data directory, or set SECRETS_KEY.',
    );
    return key;
  }
}

/** The embedded demo keeps its generated key beside its data directory: `<dataDir>.secrets-key`. */
export function secretsKeySource(
  configuredKey: string | undefined,
  database: { kind: 'postgres' } | { kind: 'pglite'; dataDir: string | null },
): SecretsKeySource {
  if (configuredKey) {
    const key = parseSecretsKey(configuredKey);
    if (!key) throw new Error('SECRETS_KEY must be 32 bytes: 64 hex characters or base64');
    return { kind: 'configured', key };
  }
  if (database.kind === 'postgres') return { kind: 'none' };
  if (database.dataDir === null) return { kind: 'generated-memory' };
  return { kind: 'generated-file', path: `${resolve(database.dataDir)}.secrets-key` };
}
