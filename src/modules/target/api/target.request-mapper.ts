import { AddTargetsCommand } from '../application/target.service.js';
import { AddTargetInput, PhoneInput } from '../domain/new-targets.js';
import { copyFields } from '../domain/target-fields.js';
import { AddTargetsDto, TargetInputPhoneNumberDto, TargetInputDto } from './dto/add-targets.dto.js';

/** snake_case request DTOs to the service's commands. */
export function toAddTargetsCommand(body: AddTargetsDto): AddTargetsCommand {
  return {
    targets: body.targets.map(toAddTargetInput),
    launch: body.launch,
    allowDuplicates: body.allow_duplicates,
  };
}

export function toAddTargetInput(t: TargetInputDto): AddTargetInput {
  const p = t.patient;
  const input: AddTargetInput = {
    ...(t.id !== undefined ? { id: t.id } : {}),
    externalId: t.external_id ?? null,
    phoneNumber: toPhone(t.phone_number),
    fallbackPhoneNumber: t.fallback_phone_number == null ? null : toPhone(t.fallback_phone_number),
    patient: p
      ? {
          first_name: p.first_name ?? null,
          last_name: p.last_name ?? null,
          date_of_birth: p.date_of_birth ?? null,
          phone_number: p.phone_number ?? null,
          external_id: p.external_id ?? null,
          extra_data: p.extra_data ?? null,
        }
      : null,
  };
  // The declared fields (domain/target-fields.ts), from their wire names to their domain names.
  return copyFields(input, 'field', t, 'name');
}

function toPhone(phone: string | TargetInputPhoneNumberDto): PhoneInput {
  return typeof phone === 'string'
    ? phone
    : { value: phone.value, operatingHours: phone.operating_hours ?? null };
}
