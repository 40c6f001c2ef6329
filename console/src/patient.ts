/**
 * How the console names a target: the patient's name first, as a coordinator thinks of them, with the
 * MRN and phone beside it; the external id or the id's start only when the target has no name.
 */

interface Named {
  first_name?: string | null;
  last_name?: string | null;
}

/** `Maria Lopez`, `Lopez`, or null when the target has no name. */
export function patientName(patient: Named | null | undefined): string | null {
  const name = [patient?.first_name, patient?.last_name].filter((p) => p?.trim()).join(' ');
  return name === '' ? null : name;
}

/** The target's name in a list or heading: the patient's name, else its external id, else its id. */
export function targetName(t: {
  id: string;
  external_id?: string | null;
  patient?: Named | null;
}): string {
  return patientName(t.patient) ?? t.external_id ?? `Target ${t.id.slice(0, 8)}`;
}

/** What stands beside the name: the MRN (when the name is shown) and the phone number. */
export function targetDetails(t: {
  external_id?: string | null;
  phone_number?: string | null;
  patient?: Named | null;
}): string {
  const parts: string[] = [];
  if (patientName(t.patient) && t.external_id) parts.push(`MRN ${t.external_id}`);
  if (t.phone_number) parts.push(t.phone_number);
  return parts.join(' · ');
}
