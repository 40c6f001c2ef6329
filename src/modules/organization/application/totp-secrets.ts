import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../../common/secrets/secret-box.js';
import type { StoredTotpSecret } from './ports/user.repository.js';

/**
 * People's TOTP secrets at rest: sealed with the service's SecretBox (SECRETS_KEY, as provider
 * credentials are), bound to their person so a ciphertext copied onto another row does not open.
 * A secret stored before sealing (no key id) is the plain base32 and is read as it is.
 */
@Injectable()
export class TotpSecrets {
  constructor(private readonly box: SecretBox) {}

  seal(userId: string, secret: string): StoredTotpSecret {
    return this.box.seal(secret, contextOf(userId));
  }

  open(userId: string, stored: StoredTotpSecret): string {
    if (stored.keyId === null) return stored.ciphertext;
    return this.box.open({ keyId: stored.keyId, ciphertext: stored.ciphertext }, contextOf(userId));
  }
}

const contextOf = (userId: string) => `user-totp:${userId}`;
