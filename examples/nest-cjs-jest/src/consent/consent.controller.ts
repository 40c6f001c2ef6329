import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  Auth,
  type AuthContext,
  InvalidInputError,
  RequiresPermission,
} from 'campaign-calling-service';
import { ConsentService } from './consent.service';

/**
 * A route of the team's own beside the service's: authenticated by the same API keys (the caller's
 * organization is `auth`), answering errors with the same bodies (`InvalidInputError` is a 422 at `body.<field>`).
 */
@Controller('api/v1/consent')
export class ConsentController {
  constructor(private readonly consents: ConsentService) {}

  // Every route declares what a key's role must allow (docs/access.md); without it, none may call it.
  @RequiresPermission('do_not_call.add')
  @Post('opt-outs')
  @HttpCode(204)
  optOut(
    @Auth() auth: AuthContext,
    @Body() body: { phone_number?: unknown },
  ): void {
    const phoneNumber = body.phone_number;
    if (
      typeof phoneNumber !== 'string' ||
      !/^\+[1-9]\d{7,14}$/.test(phoneNumber)
    ) {
      throw new InvalidInputError(
        'phone_number must be an E.164 number',
        ['phone_number'],
        phoneNumber,
      );
    }
    this.consents.optOut(auth.organizationId, phoneNumber);
  }
}
