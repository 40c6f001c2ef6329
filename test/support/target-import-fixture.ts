/**
 * TargetImportService and TargetImportRun on the in-memory fakes, for its unit spec and for the files of several chunks
 * (test/e2e/target-import-chunks.e2e-spec.ts): one campaign of one organization, a fixed clock.
 */
import { RecordingOutbox } from '../../src/testing/recording-outbox.js';
import { FakeClock } from '../../src/testing/fake-clock.js';
import { InMemoryCampaignReader } from '../../src/testing/in-memory-campaign-reader.js';
import { InMemoryTargetImportRepository } from '../../src/testing/in-memory-target-import.repository.js';
import { InMemoryTargetRepository } from '../../src/testing/in-memory-target.repository.js';
import { InMemoryTargetTransitions } from '../../src/testing/in-memory-target-transitions.js';
import { InMemoryTargetEventLog } from '../../src/testing/in-memory-target-event-log.js';
import { InMemoryUnitOfWork } from '../../src/testing/in-memory-unit-of-work.js';
import { RecordingJobQueue } from '../../src/testing/recording-job-queue.js';
import { aCampaign } from '../../src/testing/test-data.js';
import {
  ImportRecord,
  TargetImportService,
} from '../../src/modules/target/application/target-import.service.js';
import { TargetImportRun } from '../../src/modules/target/application/target-import-run.js';

export const ORG = '00000000-0000-4000-8000-00000000a001';
export const CAMPAIGN = '00000000-0000-4000-8000-00000000c001';
export const NOW = new Date('2026-01-05T15:00:00.000Z');
export const OPTIONS = { dryRun: false, launch: false, allowDuplicates: true, skipInvalid: false };

export function setup() {
  const targets = new InMemoryTargetRepository();
  const imports = new InMemoryTargetImportRepository(targets);
  const campaigns = new InMemoryCampaignReader();
  campaigns.put(aCampaign({ id: CAMPAIGN, organizationId: ORG }));
  const outbox = new RecordingOutbox();
  const jobs = new RecordingJobQueue();
  const unitOfWork = new InMemoryUnitOfWork(targets, imports, outbox);
  const clock = new FakeClock(NOW);
  const run = new TargetImportRun(
    imports,
    targets,
    new InMemoryTargetTransitions(() => targets.table()),
    new InMemoryTargetEventLog(),
    campaigns,
    outbox,
    unitOfWork,
    clock,
  );
  const service = new TargetImportService(imports, campaigns, run, jobs, unitOfWork, clock);
  return { targets, imports, outbox, jobs, service, run };
}

export async function* records(count: number, externalId = (i: number) => `EXT-${i}`) {
  for (let i = 0; i < count; i++) {
    const record: ImportRecord = {
      row: i + 2,
      input: { phoneNumber: `+1555${String(1000000 + i)}`, externalId: externalId(i) },
      errors: [],
      idColumn: null,
      externalIdColumn: 'external_id',
    };
    yield record;
  }
}
