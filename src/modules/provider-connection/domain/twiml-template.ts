/**
 * Message templates (a connection's `twiml_template` and `voicemail_message`, a campaign's
 * `voicemail_message` and follow-up text): text with `{{input_data.<field>}}` placeholders (nested
 * fields with dots: `{{input_data.appointment.time}}`) and `{{patient.<field>}}` placeholders (the
 * target's patient as imported or added: `{{patient.first_name}}`), filled from the target. A field that
 * is missing or not a string, number or boolean becomes empty text. Every template is filled here, so
 * the voice providers, the simulator and the texts say the same words.
 */
import { isRecord } from './call-result.js';

const PLACEHOLDER = /\{\{\s*((?:input_data|patient)(?:\.[A-Za-z0-9_-]+)+)\s*\}\}/g;

/** The patient fields a template may name (`extra_data` with a field below it). */
export const PATIENT_PLACEHOLDER_FIELDS = [
  'first_name',
  'last_name',
  'date_of_birth',
  'external_id',
  'phone_number',
] as const;

/** A placeholder a template may hold: any input-data field, or one of the patient's. */
const VALID_PLACEHOLDER = new RegExp(
  String.raw`^\{\{\s*(?:input_data(?:\.[A-Za-z0-9_-]+)+|patient\.(?:` +
    PATIENT_PLACEHOLDER_FIELDS.join('|') +
    String.raw`|extra_data(?:\.[A-Za-z0-9_-]+)+))\s*\}\}$`,
);

/** What a template is filled from: the target's input data and its patient (null: none given). */
export interface TemplateData {
  inputData: Record<string, unknown>;
  patient?: object | null;
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * The fields a template reads, each as its path from the root it names (`['input_data', 'appointment']`
 * for `{{input_data.appointment}}`, `['patient', 'first_name']` for `{{patient.first_name}}`), once
 * each, in the order they first appear.
 */
export function templateFields(template: string): string[][] {
  const seen = new Map<string, string[]>();
  for (const [, path] of template.matchAll(PLACEHOLDER)) {
    if (!seen.has(path)) seen.set(path, path.split('.'));
  }
  return [...seen.values()];
}

/**
 * The first `{{...}}` of `template` that is not a placeholder it may hold (it would be sent as typed:
 * `{{first_name}}` read out to a patient's mailbox), or null.
 */
export function unknownPlaceholder(template: string): string | null {
  for (const [candidate] of template.matchAll(/\{\{[^}]*\}?\}?/g)) {
    if (!VALID_PLACEHOLDER.test(candidate)) return candidate;
  }
  return null;
}

export function renderTwimlTemplate(template: string, data: TemplateData): string {
  return fillPlaceholders(template, data, (text) =>
    text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]),
  );
}

/**
 * The template's placeholders filled from `data`, each value passed through `escape` (TwiML escapes
 * XML; a text's body and a spoken voicemail take the value as it is).
 */
export function fillPlaceholders(
  template: string,
  data: TemplateData,
  escape: (text: string) => string = (text) => text,
): string {
  const roots: Record<string, unknown> = {
    input_data: data.inputData,
    patient: data.patient ?? null,
  };
  return template.replace(PLACEHOLDER, (_match, path: string) => {
    let value: unknown = roots;
    for (const key of path.split('.')) {
      value = isRecord(value) ? value[key] : undefined;
    }
    return escape(['string', 'number', 'boolean'].includes(typeof value) ? String(value) : '');
  });
}
