import {
  PyInt,
  PyModelRule,
  PyOptional,
  PyStr,
} from '../../../../common/validation/py-validators.js';

export const LIVE_CALL_SELECTOR = 'Give call_log_id, user_phone_number, or key and value';
export const KEY_WITH_VALUE = 'key and value go together: give both or neither';

/** `GET /live-calls`: the reference's four optional parameters, of which a lookup needs one. */
@PyModelRule((q: LiveCallQueryDto) =>
  (q.key == null) !== (q.value == null) ? KEY_WITH_VALUE : null,
)
@PyModelRule((q: LiveCallQueryDto) =>
  q.call_log_id == null && q.user_phone_number == null && q.key == null ? LIVE_CALL_SELECTOR : null,
)
export class LiveCallQueryDto {
  @PyOptional({
    nullable: true,
    description:
      "The key of the variable to search for: a field of the target's input data (dots reach nested fields)",
  })
  @PyStr()
  key?: string | null;

  @PyOptional({
    nullable: true,
    description: 'The value of the variable to search for (numbers and booleans as text)',
  })
  @PyStr()
  value?: string | null;

  @PyOptional({ nullable: true, description: 'The ID of the call log to search for' })
  @PyInt()
  call_log_id?: number | null;

  @PyOptional({
    nullable: true,
    description: 'The phone number of the user to search for (the number called)',
  })
  @PyStr()
  user_phone_number?: string | null;
}
