/** An organization name and an API key that must work for it (`BOOTSTRAP_API_KEYS`). */
export type BootstrapKey = [organization: string, key: string];

/** Shorter keys can be guessed or brute-forced; generated keys have 256 random bits. */
export const MIN_BOOTSTRAP_KEY_LENGTH = 32;

/** `acme=key1,globex=key2` → [['acme', 'key1'], ['globex', 'key2']]; throws saying what is wrong. */
export function parseBootstrapKeys(spec: string | undefined): BootstrapKey[] {
  if (!spec?.trim()) return [];
  const pairs = spec.split(',');
  return pairs.map((pair, i) => {
    const at = pair.indexOf('=');
    const [name, key] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    if (at < 1 || !name || !key) {
      // The pair may hold a key: it is named by its place, never shown.
      throw new Error(
        `expected name=key pairs separated by commas, got pair ${i + 1} of ${pairs.length} without a name, "=" or a key`,
      );
    }
    if (key.length < MIN_BOOTSTRAP_KEY_LENGTH) {
      throw new Error(
        `the key of "${name}" has ${key.length} characters; a bootstrap key needs at least ` +
          `${MIN_BOOTSTRAP_KEY_LENGTH} (generate one with: openssl rand -base64 32)`,
      );
    }
    return [name, key];
  });
}
