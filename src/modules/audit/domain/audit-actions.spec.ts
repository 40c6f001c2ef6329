import { readFileSync } from 'fs';
import { join } from 'path';
import { AUDIT_ACTIONS } from './audit-actions.js';

describe('the audit actions', () => {
  it('are the table of docs/access.md, each with the words it has here', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../../../docs/access.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Actions'), doc.indexOf('### Reading and exporting'));
    const rows = [...section.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \| (.+) \|$/gm)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(Object.fromEntries(rows)).toEqual(AUDIT_ACTIONS);
  });

  it('are named <resource>.<verb> in lower case', () => {
    for (const name of Object.keys(AUDIT_ACTIONS)) expect(name).toMatch(/^[a-z_]+\.[a-z_]+$/);
  });
});
