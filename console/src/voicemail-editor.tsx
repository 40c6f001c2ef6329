/**
 * A campaign's voicemail message as a form: the words left on a patient's mailbox, with their
 * placeholders previewed for a sample patient as the follow-up text's are. Empty: the message of the
 * campaign's phone connection (an administrator's setting) is left, if it has one. Like the other field
 * editors it reads and writes the field's text, so saving and the API's 422 at the field work as for
 * any field.
 */
import type { FieldEditorProps } from './field-editor.js';
import { previewText } from './words.js';

export function VoicemailMessageEditor({
  id,
  legend,
  text,
  invalid,
  describedBy,
  onText,
}: FieldEditorProps) {
  return (
    <>
      <label for={id}>{legend}</label>
      <textarea
        id={id}
        class="prose"
        rows={3}
        value={text}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={[describedBy, `${id}-preview`].filter(Boolean).join(' ')}
        onInput={(e) => onText((e.target as HTMLTextAreaElement).value)}
      />
      <p class="preview" id={`${id}-preview`} data-voicemail-preview>
        {text.trim() === '' ? (
          <span class="muted">
            No message of this campaign’s own: the phone connection’s message is left, if it has
            one.
          </span>
        ) : (
          <>
            <span class="muted">Preview for a sample patient (Maria Lopez): </span>
            {previewText(text)}
          </>
        )}
      </p>
    </>
  );
}
