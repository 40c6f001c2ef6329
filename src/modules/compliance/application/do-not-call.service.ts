import { Injectable } from '@nestjs/common';
import { Tx } from '../../../common/persistence/unit-of-work.js';

/** Placeholder until the do-not-call list (branch issue-29-dnc) lands. */
@Injectable()
export class DoNotCallService {
  async listedAmong(
    _tx: Tx | null,
    _organizationId: string,
    _phoneNumbers: string[],
  ): Promise<Map<string, Date>> {
    return new Map();
  }
}
