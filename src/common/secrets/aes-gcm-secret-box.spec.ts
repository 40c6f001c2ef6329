import { Logger } from '@nestjs/common';
import { randomBytes } from 'crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { SecretsKeyMissingError, SecretUnreadableError } from './secret-box.js';
import {
  AesGcmSecretBox,
  keyIdOf,
  parseSecretsKey,
  secretsKeySource,
} from './aes-gcm-secret-box.js';

const key = randomBytes(32);
const box = () => new AesGcmSecretBox({ kind: 'configured', key });

describe('AesGcmSecretBox', () => {
  // The generated-key warning is expected here (the process test checks that it is logged). Unit
  // files share their worker's modules (vitest.config.ts): the logger is given back after.
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn', 'debug', 'verbose']));

  it('opens what it sealed, and the ciphertext holds nothing of the plaintext', () => {
    const sealed = box().seal('{"auth_token":"very-secret-token"}', 'connection-1');
    expect(sealed.keyId).toBe(keyIdOf(key));
    expect(sealed.ciphertext).not.toContain('very-secret');
    expect(Buffer.from(sealed.ciphertext.split(':')[3], 'base64').toString()).not.toContain(
      'very-secret',
    );
    expect(box().open(sealed, 'connection-1')).toBe('{"auth_token":"very-secret-token"}');
  });

  it('uses a fresh IV each time', () => {
    const a = box().seal('same', 'c');
    const b = box().seal('same', 'c');
    expect(a.ciphertext).not.toBe(b.ciphertext);
  });

  it('refuses a ciphertext moved to another owner, tampered with, or sealed by another key', () => {
    const sealed = box().seal('secret', 'connection-1');
    expect(() => box().open(sealed, 'connection-2')).toThrow(SecretUnreadableError);
    const parts = sealed.ciphertext.split(':');
    const flipped = Buffer.from(parts[3], 'base64');
    flipped[0] ^= 1;
    parts[3] = flipped.toString('base64');
    expect(() => box().open({ ...sealed, ciphertext: parts.join(':') }, 'connection-1')).toThrow();
    const other = new AesGcmSecretBox({ kind: 'configured', key: randomBytes(32) });
    expect(() => other.open(sealed, 'connection-1')).toThrow(/sealed with key/);
    expect(() => other.open(sealed, 'connection-1')).toThrow(SecretUnreadableError);
  });

  it('refuses to seal without a key', () => {
    const none = new AesGcmSecretBox({ kind: 'none' });
    expect(() => none.seal('secret', 'c')).toThrow(SecretsKeyMissingError);
  });

  it('on the embedded database, generates one key file (mode 0600) and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ccs-secrets-'));
    try {
      const source = secretsKeySource(undefined, { kind: 'pglite', dataDir: join(dir, 'db') });
      expect(source).toEqual({ kind: 'generated-file', path: join(dir, 'db.secrets-key') });
      const sealed = new AesGcmSecretBox(source).seal('secret', 'c');
      const path = join(dir, 'db.secrets-key');
      expect(statSync(path).mode & 0o777).toBe(0o600);
      expect(parseSecretsKey(readFileSync(path, 'utf8'))).not.toBeNull();
      expect(new AesGcmSecretBox(source).open(sealed, 'c')).toBe('secret');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('needs SECRETS_KEY on PostgreSQL, and reads it as hex or base64', () => {
    expect(secretsKeySource(undefined, { kind: 'postgres' })).toEqual({ kind: 'none' });
    expect(secretsKeySource(undefined, { kind: 'pglite', dataDir: null })).toEqual({
      kind: 'generated-memory',
    });
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
    expect(parseSecretsKey('too-short')).toBeNull();
    expect(() => secretsKeySource('nope', { kind: 'postgres' })).toThrow(/SECRETS_KEY/);
  });
});
