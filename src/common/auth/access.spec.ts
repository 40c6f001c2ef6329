import { readFileSync } from 'fs';
import { join } from 'path';
import {
  mayDo,
  ORGANIZATION_WIDE,
  PERMISSIONS,
  type Permission,
  renderRoleTable,
  ROLE_PERMISSIONS,
  ROLES,
} from './access.js';

const ALL = Object.keys(PERMISSIONS) as Permission[];

describe('the role table', () => {
  it('is the table docs/access.md shows', () => {
    const doc = readFileSync(join(process.cwd(), 'docs/access.md'), 'utf8');
    const shown = /<!-- role-table:start -->\n([\s\S]*?)\n<!-- role-table:end -->/.exec(doc)?.[1];
    expect(shown).toBe(renderRoleTable());
  });

  it('gives admin everything and viewer exactly the reads but the audit trail, and who they are', () => {
    expect(ALL.filter((p) => !mayDo('admin', p))).toEqual([]);
    expect(ROLE_PERMISSIONS.viewer).toEqual([
      ...ALL.filter((p) => p.endsWith('.read') && p !== 'audit_events.read'),
      'self.session',
    ]);
  });

  it('keeps keys, people, policy, provider connections, removals and the audit trail from operators', () => {
    expect(ALL.filter((p) => !mayDo('operator', p))).toEqual([
      'webhooks.rotate_secret',
      'compliance.write',
      'retention.write',
      'patients.erase',
      'do_not_call.remove',
      'blacklists.remove',
      'provider_connections.write',
      'api_keys.manage',
      'audit_events.read',
      'users.manage',
    ]);
  });

  it('lets an integration touch targets, steps and calls and read targets and call logs only', () => {
    expect(ALL.filter((p) => mayDo('integration', p))).toEqual([
      'calls.trigger',
      'targets.read',
      'targets.write',
      'steps.write',
      'call_logs.read',
      'self.session',
    ]);
  });

  it('names only known permissions', () => {
    for (const role of ROLES) for (const p of ROLE_PERMISSIONS[role]) expect(ALL).toContain(p);
    for (const p of ORGANIZATION_WIDE) expect(ALL).toContain(p);
  });
});
