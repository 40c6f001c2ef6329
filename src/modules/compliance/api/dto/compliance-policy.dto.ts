import { ApiProperty } from '@nestjs/swagger';
import { countryError } from '../../../../common/phone/phone-number.js';
import { HH_MM, timeZoneError } from '../../../../common/schedule/week-schedule.js';
import {
  PyBool,
  PyInt,
  PyModel,
  PyModelList,
  PyOptional,
  PyRequired,
  PyStr,
  PyValueRule,
} from '../../../../common/validation/py-validators.js';

const hhmm = (v: unknown) =>
  typeof v === 'string' && HH_MM.test(v) ? null : 'time must be HH:MM (00:00 to 24:00)';

/** Hours in which calls may be placed, in each of the recipient's zones. */
export class QuietHoursDto {
  @PyRequired({ example: '08:00' })
  @PyStr()
  @PyValueRule('hhmm', hhmm)
  start: string;

  @PyRequired({ example: '21:00' })
  @PyStr()
  @PyValueRule('hhmm', hhmm)
  end: string;
}

export class CallCapsDto {
  @PyRequired({ nullable: true, example: null })
  @PyInt({ ge: 1, le: 1000 })
  per_24h: number | null;

  @PyRequired({ nullable: true, example: null })
  @PyInt({ ge: 1, le: 1000 })
  per_7d: number | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const realDate = (v: unknown) => {
  const m = typeof v === 'string' ? DATE.exec(v) : null;
  if (!m) return 'date must be YYYY-MM-DD';
  const d = new Date(`${v as string}T00:00:00Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v
    ? 'date must be a real calendar date'
    : null;
};

export class RestrictedDateDto {
  @PyRequired({ example: '2026-12-25' })
  @PyStr()
  @PyValueRule('calendarDate', realDate)
  date: string;

  @PyRequired({ example: 'Christmas Day' })
  @PyStr({ min: 1, max: 200 })
  reason: string;
}

const uniqueDates = (v: unknown) => {
  if (!Array.isArray(v)) return null;
  const dates = v.map((d: { date?: unknown }) => d?.date);
  const twice = dates.find((d, i) => dates.indexOf(d) !== i);
  return twice === undefined ? null : `date ${String(twice)} is listed twice`;
};

/** The whole policy: every field is required (PUT replaces it). */
export class CompliancePolicyDto {
  @PyRequired({
    type: QuietHoursDto,
    nullable: true,
    description:
      "Read in each of the recipient's zones. null turns quiet hours off (flagged in the answer and the logs).",
  })
  @PyModel(() => QuietHoursDto)
  // Checked here, not as a rule of the nested model: the pipe runs model rules for the body alone.
  @PyValueRule('quietHoursOrder', (value) => {
    // Runs whatever the other checks found: the value may be missing or not an object at all.
    const v = (typeof value === 'object' && value !== null ? value : {}) as {
      start?: unknown;
      end?: unknown;
    };
    return hhmm(v.start) === null && hhmm(v.end) === null && String(v.start) >= String(v.end)
      ? 'end must be after start'
      : null;
  })
  quiet_hours: QuietHoursDto | null;

  @PyRequired({ description: 'Apply the state rule pack (stricter hours, calls per 24 h).' })
  @PyBool()
  state_rules: boolean;

  @PyRequired({ type: CallCapsDto })
  @PyModel(() => CallCapsDto)
  max_calls_per_number: CallCapsDto;

  @PyRequired({ type: [RestrictedDateDto] })
  @PyModelList(() => RestrictedDateDto, { max: 1000 })
  @PyValueRule('uniqueDates', uniqueDates)
  restricted_dates: RestrictedDateDto[];

  @PyRequired({
    example: 'America/New_York',
    description: 'IANA zone for numbers whose zone is unknown',
  })
  @PyStr()
  @PyValueRule('timeZone', timeZoneError)
  default_time_zone: string;

  @PyOptional({
    example: 'US',
    description:
      'ISO 3166-1 alpha-2 country that phone numbers written without + are read in, on every ' +
      "campaign without its own (docs/targets.md); absent: the policy's current one (US until set)",
  })
  @PyStr()
  @PyValueRule('country', countryError)
  default_country?: string;
}

export class StateRuleCitationDto {
  @ApiProperty() text: string;
  @ApiProperty() url: string;
}

export class StateRuleResponseDto {
  @ApiProperty({ example: 'FL-501.616' }) id: string;
  @ApiProperty({ example: 'FL' }) state: string;
  @ApiProperty({ example: 'Florida' }) name: string;
  @ApiProperty({ example: '2021-07-01' }) effective: string;
  @ApiProperty({ example: '08:00-20:00' }) hours: string;
  @ApiProperty({ type: 'integer', nullable: true, example: 3 }) max_calls_per_24h: number | null;
  @ApiProperty({ type: StateRuleCitationDto }) citation: StateRuleCitationDto;
}

export class StateRulePackResponseDto {
  @ApiProperty({ example: '2026-11-26' }) version: string;
  @ApiProperty() scope: string;
  @ApiProperty({ type: [StateRuleResponseDto] }) rules: StateRuleResponseDto[];
}

export class CompliancePolicyResponseDto extends CompliancePolicyDto {
  @ApiProperty({
    type: [String],
    description: 'Each way this policy is weaker than the defaults, in words (empty when none)',
  })
  warnings: string[];

  @ApiProperty({ example: 'US', description: 'The country national numbers are read in' })
  declare default_country: string;

  @ApiProperty({ type: StateRulePackResponseDto, description: 'The state rules in force now' })
  state_rule_pack: StateRulePackResponseDto;
}
