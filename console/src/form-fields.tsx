/**
 * The labelled, controlled fields the sign-in and Access forms share: a text input and a role
 * select. The caller keeps the value; the field says each change.
 */

/** What the forms set on an input beside its value. */
interface InputProps {
  type?: 'text' | 'email' | 'password' | 'datetime-local';
  name?: string;
  autoComplete?: string;
  inputMode?: 'numeric' | 'text';
  'aria-describedby'?: string;
}

/** A label and its input. */
export function TextField({
  id,
  label,
  value,
  onValue,
  ...input
}: { id: string; label: string; value: string; onValue: (value: string) => void } & InputProps) {
  return (
    <>
      <label for={id}>{label}</label>
      <input
        id={id}
        value={value}
        onInput={(e) => onValue((e.target as HTMLInputElement).value)}
        // Preact types an input by its `type` literal; these pass through as the caller set them.
        {...(input as object)}
      />
    </>
  );
}

/**
 * A select of roles: with `label`, a label and the select (`id` ties them); in a table row, an
 * `aria-label` instead.
 */
export function RoleSelect<R extends string>({
  roles,
  value,
  onRole,
  id,
  label,
  ariaLabel,
}: {
  roles: readonly R[];
  value: R;
  onRole: (role: R) => void;
  id?: string;
  label?: string;
  ariaLabel?: string;
}) {
  const select = (
    <select
      id={id}
      aria-label={ariaLabel}
      value={value}
      onChange={(e) => onRole((e.target as HTMLSelectElement).value as R)}
    >
      {roles.map((r) => (
        <option key={r} value={r}>
          {r}
        </option>
      ))}
    </select>
  );
  return label ? (
    <>
      <label for={id}>{label}</label>
      {select}
    </>
  ) : (
    select
  );
}
