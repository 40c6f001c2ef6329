/**
 * Who may do what: the roles a credential can hold, the permissions routes declare, and the one
 * table from one to the other. The guard (ApiKeyGuard) is the only place it is checked, so a later
 * audit hook sits next to it; docs/access.md shows `renderRoleTable()`'s output (a unit test keeps
 * them equal).
 */
export const ROLES = ['admin', 'operator', 'viewer', 'integration'] as const;
export type Role = (typeof ROLES)[number];

/** Each permission, with what it lets a credential do (the words of a refusal and of the docs). */
export const PERMISSIONS = {
  'campaigns.read': 'read campaigns, their statistics and variables',
  'campaigns.create': 'create campaigns',
  'campaigns.write': 'change campaigns',
  'campaigns.control': 'pause, resume or cancel campaigns',
  'calls.trigger': 'trigger calls',
  'targets.read': 'read targets, their timelines and imports',
  'targets.write': 'add, change or delete targets',
  'targets.import': 'import targets from files',
  'targets.review': 'decide on targets in the review queue',
  'steps.write': 'send steps and EHR events',
  'call_logs.read': 'read call logs',
  'messages.read': 'read text messages',
  'live_calls.read': 'read live calls',
  'webhooks.read': 'read webhook deliveries',
  'webhooks.rerun': 're-run failed webhook deliveries',
  'webhooks.rotate_secret': "rotate a campaign's webhook signing secret",
  'compliance.read': 'read the calling-rules policy and its decisions',
  'compliance.write': 'change the calling-rules policy',
  'retention.read': 'read the retention policy and the record of purges and erasures',
  'retention.write': 'change the retention policy and run a purge now',
  'patients.read': "read one patient's record across every campaign",
  'patients.erase': "erase one patient's data across every campaign",
  'do_not_call.read': 'read the do-not-call list',
  'do_not_call.add': 'add numbers to the do-not-call list',
  'do_not_call.remove': 'remove numbers from the do-not-call list',
  'blacklists.read': 'read blacklists',
  'blacklists.write': 'create blacklists and add numbers to them',
  'blacklists.remove': 'remove numbers from blacklists',
  'provider_connections.read': 'read provider connections',
  'provider_connections.write': 'create, change or delete provider connections',
  'api_keys.manage': 'create, list or revoke API keys',
  'audit_events.read': 'read, export and verify the audit trail',
  'users.manage': 'invite, list, change or deactivate people',
  'self.session': 'see who it is and sign out',
} as const;
export type Permission = keyof typeof PERMISSIONS;

const ALL = Object.keys(PERMISSIONS) as Permission[];
// The audit trail says who read which patient: only admins read it.
const READS = ALL.filter((p) => p.endsWith('.read') && p !== 'audit_events.read');

/** The role -> permissions table: the only place a role's reach is written down. */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: ALL,
  operator: ALL.filter(
    (p) =>
      ![
        'compliance.write',
        'retention.write',
        'patients.erase',
        'do_not_call.remove',
        'blacklists.remove',
        'provider_connections.write',
        'webhooks.rotate_secret',
        'api_keys.manage',
        'audit_events.read',
        'users.manage',
      ].includes(p),
  ),
  viewer: [...READS, 'self.session'],
  integration: [
    'targets.read',
    'targets.write',
    'steps.write',
    'calls.trigger',
    'call_logs.read',
    'self.session',
  ],
};

/**
 * Permissions whose effect reaches beyond any campaign (or names no campaign to check): a key
 * limited to campaigns is refused them whatever its role, so that it cannot widen its own reach.
 */
export const ORGANIZATION_WIDE: ReadonlySet<Permission> = new Set<Permission>([
  'campaigns.create',
  'compliance.write',
  'retention.read',
  'retention.write',
  'patients.read',
  'patients.erase',
  'do_not_call.add',
  'do_not_call.remove',
  'blacklists.write',
  'blacklists.remove',
  'provider_connections.write',
  'api_keys.manage',
  'audit_events.read',
  'users.manage',
]);

export function mayDo(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** The 403 detail for a role refused a permission. */
export function roleRefusal(role: Role, permission: Permission): string {
  return `The ${role} role may not ${PERMISSIONS[permission]} (needs ${permission})`;
}

/** The 403 detail for a campaign-limited key refused an organization-wide permission. */
export function scopeRefusal(permission: Permission): string {
  return `A key limited to campaigns may not ${PERMISSIONS[permission]}: it reaches beyond its campaigns (needs ${permission})`;
}

/** The Markdown table of docs/access.md: one row per permission, one column per role. */
export function renderRoleTable(): string {
  const header = `| Permission | What it allows | ${ROLES.join(' | ')} |`;
  const rule = `|---|---|${ROLES.map(() => ':-:').join('|')}|`;
  const rows = ALL.map(
    (p) =>
      `| \`${p}\` | ${PERMISSIONS[p]} | ${ROLES.map((r) => (mayDo(r, p) ? 'yes' : '')).join(' | ')} |`,
  );
  return [header, rule, ...rows].join('\n');
}
