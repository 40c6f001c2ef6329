import { Injectable } from '@nestjs/common';
import type { AuthContext } from '../../../common/auth/auth-context.js';
import { Clock, SystemClock } from '../../../common/clock/clock.js';
import { ConflictError, InvalidInputError } from '../../../common/errors/domain-errors.js';
import { newTotpSecret, totpStep } from '../domain/totp.js';
import { requirePerson } from './people.service.js';
import { UserRepository } from './ports/user.repository.js';
import { TotpSecrets } from './totp-secrets.js';

export const KEYS_HAVE_NO_SECOND_FACTOR =
  'An API key has no second factor: only a signed-in person sets one up';

/**
 * The optional second factor (TOTP): a person sets it up (a secret for their authenticator app,
 * then a code from it to confirm), an admin resets it (a lost phone) and may require it for the
 * whole organization.
 */
@Injectable()
export class SecondFactorService {
  constructor(
    private readonly users: UserRepository,
    private readonly secrets: TotpSecrets,
    private readonly clock: Clock = new SystemClock(),
  ) {}

  /** A new secret to set up; replaces one not yet confirmed. */
  async start(auth: AuthContext): Promise<{ secret: string; uri: string }> {
    const userId = personOf(auth);
    const label = auth.principal.kind === 'user' ? auth.principal.email : '';
    const { secret, uri } = newTotpSecret(label);
    const sealed = this.secrets.seal(userId, secret);
    if (!(await this.users.setPendingTotp(userId, sealed, this.clock.now()))) {
      throw new ConflictError('Your second factor is already set up: ask an admin to reset it');
    }
    return { secret, uri };
  }

  /** Puts the secret in use once a code from the app proves the app has it. */
  async confirm(auth: AuthContext, code: string): Promise<void> {
    const userId = personOf(auth);
    const pending = await this.users.findTotp(userId);
    if (!pending || pending.enabled) {
      throw new ConflictError(
        pending ? 'Your second factor is already set up' : 'Start setting up a second factor first',
      );
    }
    const now = this.clock.now();
    const step = totpStep(this.secrets.open(userId, pending.secret), code, now);
    if (step === null) {
      throw new InvalidInputError(
        'Wrong code: enter the 6 digits your app shows now',
        ['code'],
        code,
      );
    }
    await this.users.enableTotp(userId, step, now);
  }

  /** An admin takes a person's second factor away (a lost phone); they set up a new one. */
  async reset(organizationId: string, userId: string): Promise<void> {
    await requirePerson(userId, () => this.users.findUser(organizationId, userId));
    await this.users.disableTotp(userId, this.clock.now());
  }

  setRequired(organizationId: string, required: boolean): Promise<void> {
    return this.users.setTotpRequired(organizationId, required);
  }

  required(organizationId: string): Promise<boolean> {
    return this.users.totpRequired(organizationId);
  }
}

function personOf(auth: AuthContext): string {
  if (auth.principal.kind !== 'user') throw new ConflictError(KEYS_HAVE_NO_SECOND_FACTOR);
  return auth.principal.id;
}
