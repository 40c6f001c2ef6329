/**
 * What the campaign form's own controls (the calling window's days and hours, the steps' list, the
 * blacklists' choice) share: they read and write the field's text as every other field does, so the
 * form's saving, "only what changed" and the API's 422 need nothing of their own.
 */
import type { ComponentChildren } from 'preact';

export interface FieldEditorProps {
  id: string;
  legend: string;
  text: string;
  invalid: boolean;
  describedBy: string | undefined;
  onText: (text: string) => void;
}

/** The field as JSON text, for a value a control cannot show (so nothing of it is lost). */
export function JsonFallback({
  id,
  legend,
  text,
  invalid,
  describedBy,
  onText,
  rows,
}: FieldEditorProps & { rows: number }) {
  return (
    <>
      <label for={id}>{legend} (JSON)</label>
      <textarea
        id={id}
        rows={rows}
        spellcheck={false}
        value={text}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={describedBy}
        onInput={(e) => onText((e.target as HTMLTextAreaElement).value)}
      />
    </>
  );
}

/** The control's group: its legend names the field, and the form's 422 focus lands on it. */
export function EditorFieldset({
  id,
  legend,
  invalid,
  describedBy,
  class: className,
  children,
}: FieldEditorProps & { class: string; children: ComponentChildren }) {
  return (
    <fieldset
      class={className}
      id={id}
      tabIndex={-1}
      aria-invalid={invalid ? true : undefined}
      aria-describedby={describedBy}
    >
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}
