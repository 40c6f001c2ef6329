import { CallFinishedEvent, CallFinishedOutbox } from '../common/events/call-finished';
import { NotFoundError } from '../common/errors/domain-errors';
import { Tx, UnitOfWork } from '../common/persistence/unit-of-work';
import {
  CallingCampaigns,
  NumberBlacklist,
} from '../modules/calling/application/ports/calling-campaigns';
import { Campaign } from '../modules/campaign/domain/campaign';
import { Target } from '../modules/target/domain/target';

/** Runs the work with a dummy transaction (fakes have no rollback). */
export class ImmediateUnitOfWork extends UnitOfWork {
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return work({} as Tx);
  }
}

export class RecordingCallFinishedOutbox extends CallFinishedOutbox {
  readonly events: CallFinishedEvent[] = [];
  async record(_tx: Tx, event: CallFinishedEvent): Promise<void> {
    this.events.push(structuredClone(event));
  }
}

export class InMemoryCallingCampaigns extends CallingCampaigns {
  private readonly campaigns = new Map<string, Campaign>();
  put(...campaigns: Campaign[]): void {
    for (const c of campaigns) this.campaigns.set(c.id, structuredClone(c));
  }
  async get(organizationId: string, campaignId: string): Promise<Campaign> {
    const c = this.campaigns.get(campaignId);
    if (!c || c.organizationId !== organizationId)
      throw new NotFoundError(`Campaign ${campaignId} not found`);
    return structuredClone(c);
  }
  async findById(campaignId: string): Promise<Campaign | null> {
    const c = this.campaigns.get(campaignId);
    return c ? structuredClone(c) : null;
  }
}

export class InMemoryNumberBlacklist extends NumberBlacklist {
  private readonly lists = new Map<string, Set<string>>();
  add(blacklistId: string, ...numbers: string[]): void {
    const set = this.lists.get(blacklistId) ?? new Set();
    numbers.forEach((n) => set.add(n));
    this.lists.set(blacklistId, set);
  }
  async findBlacklisted(blacklistIds: string[], phoneNumbers: string[]): Promise<Set<string>> {
    return new Set(
      phoneNumbers.filter((n) => blacklistIds.some((id) => this.lists.get(id)?.has(n))),
    );
  }
}

export const TEST_ORG = '00000000-0000-4000-8000-0000000000a1';
export const TEST_CAMPAIGN = '00000000-0000-4000-8000-0000000000c1';

export function callingTestCampaign(overrides: Partial<Campaign> = {}): Campaign {
  const at = new Date('2026-01-01T00:00:00.000Z');
  return {
    id: TEST_CAMPAIGN,
    organizationId: TEST_ORG,
    name: 'Calls',
    type: 'patient',
    callerId: '+15550009999',
    maxAttempts: 3,
    retryDelayMinutes: 60,
    maxConcurrentCalls: 10,
    callingWindow: null,
    steps: [],
    entryStep: null,
    blacklistIds: [],
    webhookUrl: null,
    webhookSecret: 'whsec_test',
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

let counter = 0;

export function callingTestTarget(overrides: Partial<Target> = {}): Target {
  counter++;
  const at = new Date('2026-01-01T00:00:00.000Z');
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    organizationId: TEST_ORG,
    campaignId: TEST_CAMPAIGN,
    externalId: null,
    phoneNumber: '+15550101234',
    phoneOperatingHours: null,
    fallbackPhoneNumber: null,
    fallbackOperatingHours: null,
    patient: null,
    preCallData: null,
    inputData: { name: 'x' },
    outputData: {},
    status: 'Pending',
    currentStep: null,
    resolution: null,
    category: null,
    subcategory: null,
    outcome: null,
    callLogIds: null,
    lastCallDate: null,
    executionSeconds: null,
    faxLinks: null,
    payorApiData: null,
    preCallEhrIds: null,
    attempts: 0,
    retries: null,
    scheduledTime: null,
    callStartedAt: null,
    categorization: null,
    statistics: null,
    createdAt: new Date(at.getTime() + counter),
    updatedAt: at,
    ...overrides,
  };
}
