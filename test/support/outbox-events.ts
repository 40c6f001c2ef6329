import { randomUUID } from 'crypto';
import { UnitOfWork } from '../../src/common/persistence/unit-of-work.js';
import { CallFinishedEvent, Outbox } from '../../src/modules/webhook/application/ports/outbox.js';
import type { TestApp } from './test-app.js';

/**
 * Records one `target.call_finished` event for a campaign through the outbox, as a call ending would:
 * webhook tests that are about delivery (not calling) start from here.
 */
export async function recordCallFinished(
  t: TestApp,
  campaign: { id: string; organization_id: string },
  overrides: Partial<CallFinishedEvent> = {},
): Promise<void> {
  await t.app.get(UnitOfWork).run((tx) =>
    t.app.get(Outbox).record(tx, [
      {
        kind: 'call_finished',
        event: {
          organizationId: campaign.organization_id,
          campaignId: campaign.id,
          targetId: randomUUID(),
          callLogId: 1,
          attempt: 1,
          maxAttempts: 3,
          nextAttemptScheduled: null,
          status: 'Finished',
          resolution: 'successful',
          category: 'COMPLETED',
          subcategory: null,
          ...overrides,
        },
      },
    ]),
  );
}
