import { countryError } from '../../../../common/phone/phone-number.js';
import { ApiProperty } from '@nestjs/swagger';
import { WeekSchedule as WeekScheduleSchema } from '../../../../common/http/week-schedule.dto.js';
import { CampaignResponseDto } from './campaign-response.dto.js';
import { WeekSchedule } from '../../../../common/schedule/week-schedule.js';
import { PyLocated, weekScheduleErrors } from '../../../../common/validation/py-located.js';
import {
  PyEnum,
  PyFloat,
  PyInt,
  PyModel,
  PyList,
  PyModelList,
  PyOptional,
  PyRequired,
  PyStr,
  PyValueRule,
  PyUuid,
  uuidError,
} from '../../../../common/validation/py-validators.js';
import {
  CAMPAIGN_TYPES,
  CampaignStep,
  type CampaignType,
  SMS_FOLLOW_UP_AFTER,
  type SmsFollowUp,
  STEP_ON_RECEIVE,
  STEP_TYPES,
} from '../../domain/campaign.js';
import { CALL_OUTCOMES } from '../../../telephony/domain/call-outcome.js';
import {
  PATIENT_PLACEHOLDER_FIELDS,
  unknownPlaceholder,
} from '../../../provider-connection/domain/twiml-template.js';
import { categoryOf } from '../../domain/call-category.js';
import { pydantic } from '../../../../common/validation/pydantic-errors.js';
import { PageEnvelopeResponseDto } from '../../../../common/paging/page-envelope-response.dto.js';

const FRIENDLY_ID = /^[A-Za-z0-9_.-]+$/;

export class CampaignStepDto {
  @PyRequired({
    example: 'intake-form',
    description: 'Identifies the step in URLs: letters, digits, _ . -',
  })
  @PyStr({ min: 1, max: 100 })
  @PyValueRule('friendlyId', (v) =>
    typeof v === 'string' && !FRIENDLY_ID.test(v)
      ? 'friendly_id may only contain letters, digits, _ . -'
      : null,
  )
  friendly_id: string;

  @PyRequired()
  @PyEnum(STEP_TYPES)
  type: CampaignStep['type'];

  @PyOptional({ default: 'merge' })
  @PyEnum(STEP_ON_RECEIVE)
  on_receive?: CampaignStep['on_receive'];
}

/** The circuit breaker's setting (issue 12). */
export class AutoPauseDto {
  @PyRequired({
    example: 20,
    description: 'How many of the latest ended calls the failure share is taken over',
  })
  @PyInt({ ge: 1, le: 1000 })
  window: number;

  @PyRequired({
    example: 0.5,
    description:
      'The campaign pauses itself when more than this share of those calls ended TECHNICAL_FAILURE',
  })
  @PyFloat({ gt: 0, le: 1 })
  max_failure_ratio: number;
}

/** Every category a call's outcome reads as, in any campaign type: what a text may follow. */
const CALL_CATEGORIES = [
  ...new Set(
    CAMPAIGN_TYPES.flatMap((type) => CALL_OUTCOMES.map((outcome) => categoryOf(type, outcome))),
  ),
].filter((c): c is string => c !== null);

/** The campaign's follow-up text (docs/calling.md, Texts). */
export class SmsFollowUpDto {
  @PyOptional({
    nullable: true,
    description:
      "The connection that sends the texts; null: the campaign's provider connection, else the simulator",
  })
  @PyUuid()
  provider_connection_id?: string | null;

  @PyRequired({
    type: [String],
    example: ['VOICEMAIL', 'NO_RESPONSE'],
    description: "The calls' categories a text follows",
  })
  @PyList({ min: 1, max: 50 }, (v) =>
    CALL_CATEGORIES.includes(v as string) ? null : pydantic.enum(CALL_CATEGORIES),
  )
  on_categories: string[];

  @PyRequired({
    example: 'Hi {{patient.first_name}}, we tried to reach you about your appointment.',
    description:
      'The text, with `{{patient.<field>}}` (first_name, last_name, date_of_birth, external_id, ' +
      'phone_number) and `{{input_data.<field>}}` placeholders (nested fields with dots)',
  })
  @PyStr({ min: 1, max: 1600 })
  @PyValueRule('placeholders', placeholderError)
  template: string;

  @PyOptional({
    default: 'each_attempt',
    description:
      '`each_attempt`: after every listed attempt; `last_attempt`: only when no retry follows',
  })
  @PyEnum(SMS_FOLLOW_UP_AFTER)
  after?: SmsFollowUp['after'];
}

/**
 * A `{{...}}` that is not a placeholder (`{{input_data.<field>}}`, `{{patient.first_name}}`, ...) would
 * be sent as typed (`{{first_name}}` read out to a patient's mailbox): refused, naming the first one and
 * the forms that work.
 */
function placeholderError(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const bad = unknownPlaceholder(v);
  return bad
    ? `placeholder ${bad} is not one: write a patient's data as {{input_data.<field>}} or {{patient.<field>}} (${PATIENT_PLACEHOLDER_FIELDS.join(', ')}), such as {{patient.first_name}}`
    : null;
}

const WEEK_SCHEDULE_DOC = {
  type: () => WeekScheduleSchema,
  nullable: true,
  description: 'When calls may be placed (WeekSchedule; tz defaults to US/Eastern)',
  example: { monday: [{ start: '09:00', end: '17:00' }], tz: 'US/Eastern' },
};

const httpUrlRule = (v: unknown): string | null => {
  if (typeof v !== 'string') return null;
  const protocol = URL.parse(v)?.protocol;
  return protocol === 'http:' || protocol === 'https:'
    ? null
    : 'webhook_url must be an absolute http(s) URL';
};

const uniqueFriendlyIds = (v: unknown): string | null => {
  if (!Array.isArray(v)) return null;
  const ids = v.map((s) => (s as { friendly_id?: unknown })?.friendly_id);
  const duplicate = ids.find((id, i) => typeof id === 'string' && ids.indexOf(id) !== i);
  return duplicate === undefined ? null : `duplicate step friendly_id "${duplicate}"`;
};

/** Fields shared by create and update; on update every field is optional. */
class CampaignFieldsDto {
  @PyOptional({ nullable: true, example: '+15550100000' })
  @PyStr({ max: 32 })
  caller_id?: string | null;

  @PyOptional({ default: 3 }) @PyInt({ ge: 1, le: 20 }) max_attempts?: number;

  @PyOptional({ default: 60 }) @PyInt({ ge: 0, le: 10080 }) retry_delay_minutes?: number;

  @PyOptional({ default: 10 }) @PyInt({ ge: 1, le: 1000 }) max_concurrent_calls?: number;

  @PyOptional(WEEK_SCHEDULE_DOC)
  @PyLocated('weekSchedule', (v) => weekScheduleErrors(v))
  calling_window?: WeekSchedule | null;

  @PyOptional({ type: [CampaignStepDto], default: [] })
  @PyModelList(() => CampaignStepDto, { max: 50 })
  @PyValueRule('uniqueSteps', uniqueFriendlyIds)
  steps?: CampaignStepDto[];

  @PyOptional({ nullable: true, description: 'friendly_id of the step new targets wait at' })
  @PyStr()
  entry_step?: string | null;

  @PyOptional({ type: [String], format: 'uuid', default: [] })
  @PyList({ max: 100 }, uuidError)
  blacklist_ids?: string[];

  @PyOptional({ nullable: true, example: 'https://example.com/hooks/calls' })
  @PyStr({ max: 2048 })
  @PyValueRule('httpUrl', httpUrlRule)
  webhook_url?: string | null;

  @PyOptional({
    nullable: true,
    example: 'CA',
    description:
      "ISO 3166-1 alpha-2 country that its targets' numbers written without + are read in; null " +
      "(default): the organization's default_country (the calling policy's)",
  })
  @PyStr()
  @PyValueRule('country', countryError)
  default_country?: string | null;

  @PyOptional({
    nullable: true,
    example: 'Hi {{patient.first_name}}, this is your clinic. Please call us back at 555-0100.',
    description:
      'What is left on a voicemail box, with `{{patient.<field>}}` and `{{input_data.<field>}}` placeholders (1 to 500 ' +
      "characters); null (default): the provider connection's `voicemail_message`, if it has one",
  })
  @PyStr({ min: 1, max: 500 })
  @PyValueRule('placeholders', placeholderError)
  voicemail_message?: string | null;

  @PyOptional({
    nullable: true,
    description:
      "The provider connection that places the campaign's calls; null: the organization's default connection, else the service's own provider",
  })
  @PyUuid()
  provider_connection_id?: string | null;

  @PyOptional({
    type: () => AutoPauseDto,
    nullable: true,
    description:
      'Circuit breaker: once at least `window` calls have ended, the campaign pauses itself (`paused_reason` says why, webhook event `campaign.paused`) when more than `max_failure_ratio` of its last `window` ended calls failed technically; null (the default): off',
  })
  @PyModel(() => AutoPauseDto)
  auto_pause?: AutoPauseDto | null;

  @PyOptional({
    type: () => SmsFollowUpDto,
    nullable: true,
    description:
      'A text after calls of the listed categories: the target goes `SMS Scheduled`, the text is sent when the calling rules allow it (quiet hours, do-not-call list), then the target goes on as the call decided; null (the default): off',
  })
  @PyModel(() => SmsFollowUpDto)
  sms_follow_up?: SmsFollowUpDto | null;
}

export class CreateCampaignDto extends CampaignFieldsDto {
  @PyRequired({ example: 'Appointment reminders' })
  @PyStr({ min: 1, max: 200 })
  name: string;

  @PyRequired()
  @PyEnum(CAMPAIGN_TYPES)
  type: CampaignType;
}

export class UpdateCampaignDto extends CampaignFieldsDto {
  @PyOptional()
  @PyStr({ min: 1, max: 200 })
  name?: string;

  @PyOptional()
  @PyEnum(CAMPAIGN_TYPES)
  type?: CampaignType;
}

export class ListCampaignsQueryDto {
  @PyOptional({ default: 0 }) @PyInt({ ge: 0 }) page: number = 0;
  @PyOptional({ default: 50 }) @PyInt({ ge: 1, le: 100 }) limit: number = 50;
}

export class CampaignPageResponseDto extends PageEnvelopeResponseDto {
  @ApiProperty({ type: [CampaignResponseDto] }) campaigns: CampaignResponseDto[];
}
