/**
 * A campaign's follow-up text as a form: on or off, the calls it follows (categories as checkboxes, in
 * words), after every such call or only the last attempt, and the message with its placeholders
 * previewed for a sample patient. Like the other field editors it reads and writes the field's JSON
 * text, so saving, "only what changed" and the API's 422 work as for any field.
 */
import { EditorFieldset, JsonFallback, type FieldEditorProps } from './field-editor.js';
import { codeWords, previewText } from './words.js';

interface FollowUp {
  on_categories: string[];
  template: string;
  after?: string;
  [key: string]: unknown;
}

/** The calls a text usually follows: the person could not be reached, or asked to be called back. */
const CATEGORIES = [
  'NO_RESPONSE',
  'VOICEMAIL',
  'CALLBACK_REQUESTED',
  'DISCONNECTED',
  'TRANSFER_FAILED',
  'SERVICE_NOT_AVAILABLE',
  'HUMAN_ONLY',
  'GOOD',
];

function parse(text: string): FollowUp | null | undefined {
  if (text.trim() === '' || text.trim() === 'null') return null;
  try {
    const v: unknown = JSON.parse(text);
    if (v === null) return null;
    return typeof v === 'object' && !Array.isArray(v) ? (v as FollowUp) : undefined;
  } catch {
    return undefined;
  }
}

export function SmsFollowUpEditor(props: FieldEditorProps) {
  const { id, text, onText } = props;
  const value = parse(text);
  if (value === undefined) return <JsonFallback {...props} rows={5} />;
  const set = (next: FollowUp | null) => onText(next === null ? 'null' : JSON.stringify(next));
  const categories = value?.on_categories ?? [];
  const shown = [...CATEGORIES, ...categories.filter((c) => !CATEGORIES.includes(c))];
  return (
    <EditorFieldset {...props} class="sms">
      <div class="field check">
        <input
          id={`${id}-on`}
          type="checkbox"
          checked={value !== null}
          onChange={(e) =>
            set(
              (e.target as HTMLInputElement).checked
                ? {
                    on_categories: ['NO_RESPONSE', 'VOICEMAIL'],
                    template:
                      'Hi {{patient.first_name}}, we tried to reach you about your care. Please call us back.',
                    after: 'each_attempt',
                  }
                : null,
            )
          }
        />
        <label for={`${id}-on`}>Send a text message after some calls</label>
      </div>
      {value === null ? (
        <p class="muted">No text is sent.</p>
      ) : (
        <>
          <fieldset class="choices" id={`${id}-on_categories`} tabIndex={-1}>
            <legend>After calls that ended</legend>
            {shown.map((c) => (
              <div class="field check" key={c}>
                <input
                  id={`${id}-cat-${c}`}
                  type="checkbox"
                  checked={categories.includes(c)}
                  onChange={(e) =>
                    set({
                      ...value,
                      on_categories: (e.target as HTMLInputElement).checked
                        ? [...categories, c]
                        : categories.filter((x) => x !== c),
                    })
                  }
                />
                <label for={`${id}-cat-${c}`} title={c}>
                  {codeWords(c)}
                </label>
              </div>
            ))}
          </fieldset>
          <fieldset class="choices">
            <legend>When</legend>
            {(
              [
                ['each_attempt', 'After each such call'],
                ['last_attempt', 'Only when no more calls follow (the last attempt)'],
              ] as const
            ).map(([after, words]) => (
              <div class="field check" key={after}>
                <input
                  id={`${id}-after-${after}`}
                  type="radio"
                  name={`${id}-after`}
                  checked={(value.after ?? 'each_attempt') === after}
                  onChange={() => set({ ...value, after })}
                />
                <label for={`${id}-after-${after}`}>{words}</label>
              </div>
            ))}
          </fieldset>
          <div class="field">
            <label for={`${id}-template`}>Message text</label>
            <textarea
              id={`${id}-template`}
              class="prose"
              rows={3}
              value={value.template ?? ''}
              aria-describedby={`${id}-template-help ${id}-preview`}
              onInput={(e) => set({ ...value, template: (e.target as HTMLTextAreaElement).value })}
            />
            <p class="muted help" id={`${id}-template-help`}>
              Put a patient’s data in with <code>{'{{patient.first_name}}'}</code>,{' '}
              <code>{'{{patient.last_name}}'}</code>, <code>{'{{patient.date_of_birth}}'}</code> or{' '}
              <code>{'{{patient.external_id}}'}</code> (the MRN), or any other column of the import
              with <code>{'{{input_data.appointment_date}}'}</code>. Texts are sent only when the
              calling rules allow it, never to a number on the do-not-call list.
            </p>
            <p class="preview" id={`${id}-preview`} data-sms-preview>
              <span class="muted">Preview for a sample patient (Maria Lopez): </span>
              {previewText(value.template ?? '')}
            </p>
          </div>
        </>
      )}
    </EditorFieldset>
  );
}
