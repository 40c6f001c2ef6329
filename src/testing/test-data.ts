import { Campaign, CAMPAIGN_DEFAULTS } from '../modules/campaign/domain/campaign.js';
import { freshTarget, type NewTarget } from '../modules/target/domain/new-targets.js';
import type { Target } from '../modules/target/domain/target.js';
import { absentFields } from '../modules/target/domain/target-fields.js';

export const TEST_ORG = '00000000-0000-4000-8000-00000000a001';
export const TEST_CAMPAIGN = '00000000-0000-4000-8000-00000000c001';

const AT = new Date('2026-01-01T00:00:00.000Z');

/** A campaign of TEST_ORG with the defaults the API gives, plus a caller id; override any field. */
export function aCampaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: TEST_CAMPAIGN,
    organizationId: TEST_ORG,
    name: 'Test campaign',
    type: 'patient',
    callerId: '+15550009999',
    ...CAMPAIGN_DEFAULTS,
    callingWindow: null,
    steps: [],
    entryStep: null,
    blacklistIds: [],
    webhookUrl: null,
    webhookSecret: 'whsec_test',
    providerConnectionId: null,
    state: 'active',
    stateChangedAt: null,
    autoPause: null,
    smsFollowUp: null,
    voicemailMessage: null,
    defaultCountry: null,
    pausedReason: null,
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  };
}

let counter = 0;

/** The fields a new Pending target of TEST_CAMPAIGN sets, with the next fresh id. */
function nextNewTarget(): NewTarget {
  counter++;
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
    ...absentFields(),
    status: 'Pending',
    currentStep: null,
    scheduledTime: null,
  };
}

/**
 * A Pending target of TEST_CAMPAIGN; override any field. Without an id it gets a fresh one, and
 * each target is created 1 ms after the one built before it.
 */
export function aTarget(overrides: Partial<Target> = {}): Target {
  const row = nextNewTarget();
  return { ...freshTarget(row, new Date(AT.getTime() + counter), AT), ...overrides };
}

/** A target to insert (`TargetRepository.insertMany`): `aTarget`'s fields a new target sets. */
export function aNewTarget(overrides: Partial<NewTarget> = {}): NewTarget {
  return { ...nextNewTarget(), ...overrides };
}
