import {
  PyBool,
  PyDict,
  PyOptional,
  PyRequired,
  PyStr,
  PyValueRule,
  PyStorable,
} from '../../../../common/validation/py-validators.js';
import { timeZoneError } from '../../../../common/schedule/week-schedule.js';

export class UpdateTargetInputDataDto {
  // Required, as in the reference (send {} to change only the time zone).
  @PyRequired({
    description:
      "Keys to set in the target's input_data (one level deep); keys not sent are left unchanged",
    example: { appointment_date: '2026-04-02' },
  })
  @PyDict()
  @PyStorable()
  input_data: Record<string, unknown>;

  @PyOptional({
    nullable: true,
    example: 'America/Chicago',
    description:
      "The recipient's IANA zone (null: none, the number's zones apply); a Scheduled target is decided again at once (docs/compliance.md)",
  })
  @PyStr()
  @PyValueRule('timeZone', timeZoneError)
  time_zone?: string | null;

  @PyOptional({
    default: true,
    description:
      'true: refuse with 409 when the target has started (a call was placed, or it left Pending/Scheduled); ' +
      'false: edit regardless',
  })
  @PyBool()
  only_if_not_started: boolean = true;
}
