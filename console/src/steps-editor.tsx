/**
 * A campaign's steps edited as a list: per step its id, its type and what a received step does, with
 * "Add step" and "Remove". It reads and writes the form's JSON text of the field (as the calling
 * window's editor does); a value that is not a list of objects is left to edit as text.
 */
import { EditorFieldset, JsonFallback, type FieldEditorProps } from './field-editor.js';

interface Step {
  friendly_id: string;
  type: string;
  on_receive?: string;
  [key: string]: unknown;
}

const TYPES: [string, string][] = [
  ['webhook', 'Webhook'],
  ['ehr_event', 'EHR event'],
];
const ON_RECEIVE: [string, string][] = [
  ['merge', 'Merge the data'],
  ['merge_and_schedule', 'Merge, then call again'],
];

function parse(text: string): Step[] | undefined {
  if (text.trim() === '' || text.trim() === 'null') return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) && value.every((s) => typeof s === 'object' && s !== null)
      ? (value as Step[])
      : undefined;
  } catch {
    return undefined;
  }
}

export function StepsEditor(props: FieldEditorProps) {
  const { id, text, onText } = props;
  const steps = parse(text);
  if (steps === undefined) {
    return <JsonFallback {...props} rows={6} />;
  }
  const set = (next: Step[]) => onText(JSON.stringify(next, null, 2));
  const change = (i: number, key: string, value: string) =>
    set(steps.map((s, j) => (j === i ? { ...s, [key]: value } : s)));
  const select = (i: number, key: string, label: string, options: [string, string][]) => (
    <div class="field">
      <label for={`${id}-${i}-${key}`}>{label}</label>
      <select
        id={`${id}-${i}-${key}`}
        value={String(steps[i][key] ?? options[0][0])}
        onChange={(e) => change(i, key, (e.target as HTMLSelectElement).value)}
      >
        {options.map(([value, words]) => (
          <option key={value} value={value}>
            {words}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <EditorFieldset {...props} class="steps">
      {steps.length === 0 ? <p class="muted">No steps.</p> : null}
      <ol class="step-list">
        {steps.map((s, i) => (
          <li key={i} data-step={i}>
            <div class="field">
              <label for={`${id}-${i}-friendly_id`}>Step {i + 1} id</label>
              <input
                id={`${id}-${i}-friendly_id`}
                type="text"
                spellcheck={false}
                placeholder="intake-form"
                value={s.friendly_id ?? ''}
                onInput={(e) => change(i, 'friendly_id', (e.target as HTMLInputElement).value)}
              />
            </div>
            {select(i, 'type', `Step ${i + 1} type`, TYPES)}
            {select(i, 'on_receive', `Step ${i + 1} on receipt`, ON_RECEIVE)}
            <button
              type="button"
              class="secondary small"
              aria-label={`Remove step ${i + 1}${s.friendly_id ? ` (${s.friendly_id})` : ''}`}
              onClick={() => set(steps.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </li>
        ))}
      </ol>
      <button
        type="button"
        class="secondary small"
        onClick={() => set([...steps, { friendly_id: '', type: 'webhook', on_receive: 'merge' }])}
      >
        Add step
      </button>
    </EditorFieldset>
  );
}
