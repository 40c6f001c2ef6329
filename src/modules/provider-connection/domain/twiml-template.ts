/**
 * A connection's `twiml_template`: TwiML with `{{input_data.<field>}}` placeholders (nested fields with
 * dots: `{{input_data.patient.first_name}}`), filled from the target's input data and XML-escaped. A
 * field that is missing or not a string, number or boolean becomes empty text.
 */
const PLACEHOLDER = /\{\{\s*input_data((?:\.[A-Za-z0-9_-]+)+)\s*\}\}/g;

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * The input-data fields a template reads, each as its path (`['patient', 'first_name']` for
 * `{{input_data.patient.first_name}}`), once each, in the order they first appear.
 */
export function templateFields(template: string): string[][] {
  const seen = new Map<string, string[]>();
  for (const [, path] of template.matchAll(PLACEHOLDER)) {
    if (!seen.has(path)) seen.set(path, path.slice(1).split('.'));
  }
  return [...seen.values()];
}

export function renderTwimlTemplate(template: string, inputData: Record<string, unknown>): string {
  return fillPlaceholders(template, inputData, (text) =>
    text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]),
  );
}

/**
 * The template's `{{input_data.<field>}}` placeholders filled from `inputData`, each value passed
 * through `escape` (TwiML escapes XML; a text's body takes the value as it is).
 */
export function fillPlaceholders(
  template: string,
  inputData: Record<string, unknown>,
  escape: (text: string) => string = (text) => text,
): string {
  return template.replace(PLACEHOLDER, (_match, path: string) => {
    let value: unknown = inputData;
    for (const key of path.slice(1).split('.')) {
      value =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>)[key]
          : undefined;
    }
    return escape(['string', 'number', 'boolean'].includes(typeof value) ? String(value) : '');
  });
}
