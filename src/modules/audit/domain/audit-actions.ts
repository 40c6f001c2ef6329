/**
 * Every action an audit event may name, with what it records (docs/access.md lists them). Routes
 * declare theirs with `@Audit`; other modules (sign-in, user changes) pass theirs to
 * `AuditTrailService.record`. A name is `<resource>.<verb>`.
 */
export const AUDIT_ACTIONS = {
  // Reads of patient data
  'target.read': 'read one target',
  'target.list': "read a page of a campaign's targets (the event names the targets returned)",
  'target.timeline': "read a target's timeline",
  'import.read': 'read an import report',
  'import_errors.export': "download an import's rejected rows (their values) as CSV",
  'call_log.read': 'read one call log and its transcript',
  'recording.read': 'read a call log with its recording links (include_recordings=true)',
  'call_log.list': 'read a page of call logs (the event names the call logs returned)',
  'message.list': "read a target's text messages",
  'message.read': 'read one text message',
  'live_call.read': 'read a live call',
  'webhook_delivery.list': "read a page of a campaign's webhook deliveries",
  'webhook_delivery.read': 'read one webhook delivery',
  'compliance_decision.list': 'read a page of calling-rule decisions',
  'compliance_decision.export': 'download calling-rule decisions as CSV',
  'do_not_call.list': 'read the do-not-call list',
  'blacklist_number.list': "read a blacklist's numbers",
  'audit_event.list': 'read a page of audit events',
  'audit_event.export': 'download audit events as CSV',
  'audit_chain.verify': "check the organization's audit hash chain",
  'api_key.list': 'list the API keys',
  'patient.read': "read one person's record across campaigns (the event names its targets)",
  'patient.export': "download one person's record across campaigns as CSV",
  'retention_run.list': 'read the purge runs and erasures (an erasure names its person)',
  // Changes
  'target.create': 'add targets to a campaign',
  'target.import': 'import targets from a file',
  'target.update': "change a target's input data or time zone",
  'target.delete': 'delete targets',
  'target.review': 'decide on a target in the review queue',
  'call.trigger': 'trigger calls',
  'step.receive': 'send a step for a target',
  'step.receive_batch': 'send a step for several targets',
  'ehr_event.receive': 'send an EHR event',
  'campaign.create': 'create a campaign',
  'campaign.update': "change a campaign's settings",
  'campaign.pause': 'pause a campaign',
  'campaign.resume': 'resume a campaign',
  'campaign.cancel': 'cancel a campaign',
  'webhook.rerun': 'run failed webhook deliveries again',
  'webhook_secret.rotate': "rotate a campaign's webhook signing secret",
  'policy.update': 'replace the calling-rules policy',
  'retention.update': "replace the organization's or a campaign's retention policy",
  'retention.delete': "remove a campaign's own retention policy",
  'retention.run': 'run the retention purge now',
  'patient.erase': "erase one person's data across campaigns",
  'do_not_call.add': 'add numbers to the do-not-call list',
  'do_not_call.remove': 'remove numbers from the do-not-call list',
  'blacklist.create': 'create a blacklist',
  'blacklist_number.add': 'add numbers to a blacklist',
  'blacklist_number.remove': 'remove numbers from a blacklist',
  'provider_connection.create': 'create a provider connection',
  'provider_connection.update': 'change a provider connection',
  'provider_connection.delete': 'delete a provider connection',
  'api_key.create': 'create an API key',
  'api_key.revoke': 'revoke an API key',
  'access.refused':
    'a request refused (403) on a route that declares no audit action of its own (the event names the route)',
  // Recorded by the modules of people who sign in (through AuditTrailService.record)
  'session.sign_in': 'a person signed in (`detail.method`: `password` or `sso`)',
  'session.sign_in_failed':
    'a sign-in failed (the actor is who it claimed to be; `detail.method`: `password` or `sso`)',
  'session.locked':
    "repeated failures locked a person's sign-ins (`detail.locked`: `account` and/or `address`)",
  'invitation.accept': 'a person set their password through an invitation',
  'session.sign_out': 'a person signed out',
  'user.list': 'list the people of the organization',
  'user.create': 'invite a person',
  'user.update': "change a person's name, role or campaigns",
  'user.deactivate': 'deactivate a person (their sessions end)',
  'user.reinvite': 'issue a new invitation link to a person',
  'totp.start': 'begin setting up a second factor',
  'totp.confirm': 'confirm a second factor',
  'totp.reset': "reset a person's second factor",
  'sign_in_policy.update': 'require or stop requiring a second factor',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function isAuditAction(name: string): name is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, name);
}
