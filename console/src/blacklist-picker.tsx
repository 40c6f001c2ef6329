import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { CampaignCallingClient } from '../../clients/typescript/src/index.js';
import { errorText } from './api.js';
import { EditorFieldset, type FieldEditorProps } from './field-editor.js';
import { usePoll } from './ui.js';

/** The signed-in client, for controls deep in a form that read a list of their own (the blacklists). */
export const ClientContext = createContext<CampaignCallingClient | null>(null);

const PAGES_MAX = 10;

/**
 * A campaign's blacklists chosen by name from the organization's (`GET /api/v1/blacklists`), as
 * checkboxes; it reads and writes the form's text of the field (comma-separated ids), so an id of a
 * blacklist not listed (another organization's, a typo) stays and is the API's to refuse.
 */
export function BlacklistPicker(props: FieldEditorProps) {
  const { id, text, onText } = props;
  const client = useContext(ClientContext);
  const list = usePoll(
    async () => {
      if (!client) return [];
      const all = [];
      for (let page = 0; page < PAGES_MAX; page++) {
        const { data, error, response } = await client.GET('/api/v1/blacklists', {
          params: { query: { page, limit: 100 } },
        });
        if (!data) throw new Error(errorText(error, response.status));
        all.push(...data.blacklists);
        if (data.next_page === null || data.next_page === undefined) break;
      }
      return all;
    },
    [client],
    0,
  );
  const chosen = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const toggle = (blacklistId: string, on: boolean) =>
    onText((on ? [...chosen, blacklistId] : chosen.filter((c) => c !== blacklistId)).join(', '));
  const known = new Set((list.value ?? []).map((b) => b.id));
  const unknown = chosen.filter((c) => !known.has(c));
  return (
    <EditorFieldset {...props} class="blacklists">
      {list.error ? <p class="field-error">Could not read the blacklists: {list.error}</p> : null}
      {!list.value && !list.error ? <p class="muted">Loading…</p> : null}
      {list.value && list.value.length === 0 ? (
        <p class="muted">No blacklists yet (they are created through the API).</p>
      ) : null}
      {(list.value ?? []).map((b) => (
        <div class="field check" key={b.id}>
          <input
            id={`${id}-${b.id}`}
            type="checkbox"
            checked={chosen.includes(b.id)}
            onChange={(e) => toggle(b.id, (e.target as HTMLInputElement).checked)}
          />
          <label for={`${id}-${b.id}`} title={b.id}>
            {b.name}
          </label>
        </div>
      ))}
      {list.value && unknown.length ? (
        <p class="muted" data-unknown-blacklists>
          Also set, not among this organization’s blacklists: {unknown.join(', ')}
        </p>
      ) : null}
    </EditorFieldset>
  );
}
