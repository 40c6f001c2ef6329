import { Injectable } from '@nestjs/common';
import {
  PreDialCall,
  PreDialCheck,
  PreDialVerdict,
} from 'campaign-calling-service';
import { ConsentService } from './consent.service';

/**
 * Asked by the service before every call: a number that opted out is never called (the target ends
 * `Failed`, "Refused by a pre-dial check: consent: ..."). Nest builds it with the team's own
 * `ConsentService`, which `forRoot({ imports: [ConsentModule] })` makes injectable here.
 */
@Injectable()
export class ConsentCheck extends PreDialCheck {
  readonly name = 'consent';

  constructor(private readonly consents: ConsentService) {
    super();
  }

  async check(calls: PreDialCall[]): Promise<PreDialVerdict[]> {
    return calls.map((call) =>
      this.consents.hasOptedOut(call.organizationId, call.to)
        ? { action: 'refuse', reason: 'the patient opted out' }
        : { action: 'call' },
    );
  }
}
