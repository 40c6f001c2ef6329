import { Ajv, type ValidateFunction } from 'ajv';
import { randomBytes } from 'crypto';
import ajvFormats from 'ajv-formats';
import { readFileSync } from 'fs';
import { join } from 'path';
import type { Response } from 'supertest';
import { OrganizationService } from '../../src/modules/organization/application/organization.service.js';
import { createTestApp, TestApp, waitFor } from '../support/test-app.js';

/**
 * Real answers of every operation, successes and errors, validated with Ajv against the committed
 * openapi.json: the status must be documented for the operation, and the body must fit its schema.
 * So the document cannot drift from the behaviour.
 */
const DOCUMENT = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'openapi.json'), 'utf8'),
);

// OpenAPI 3.0 schemas: `nullable` is Ajv's own keyword; `example` and friends are annotations.
const ajv = new Ajv({ strict: false, allErrors: true });
// ajv-formats is CommonJS: its plugin is the `default` of what an ES module imports.
ajvFormats.default(ajv);
ajv.addSchema(DOCUMENT, 'openapi');
const validators = new Map<string, ValidateFunction>();

function validatorFor(method: string, template: string, status: number): ValidateFunction | null {
  const key = `${method} ${template} ${status}`;
  if (validators.has(key)) return validators.get(key)!;
  const operation = DOCUMENT.paths[template]?.[method];
  const response = operation?.responses?.[String(status)];
  if (!response) return null;
  const schema = response.content?.['application/json']?.schema ?? {};
  const rebased = JSON.parse(
    JSON.stringify(schema).replace(/"#\/components\//g, '"openapi#/components/'),
  );
  const validate = ajv.compile(rebased);
  validators.set(key, validate);
  return validate;
}

const seen = new Set<string>();

function conforms(method: string, template: string, res: Response): Response {
  const validate = validatorFor(method, template, res.status);
  expect({
    operation: `${method} ${template}`,
    status: res.status,
    documented: !!validate,
  }).toEqual({
    operation: `${method} ${template}`,
    status: res.status,
    documented: true,
  });
  const ok = validate!(res.body);
  expect({
    operation: `${method} ${template} ${res.status}`,
    errors: ok ? [] : validate!.errors,
  }).toEqual({
    operation: `${method} ${template} ${res.status}`,
    errors: [],
  });
  seen.add(`${method} ${template}`);
  return res;
}

describe('responses conform to openapi.json', () => {
  let t: TestApp;
  let apiKey: string;
  let organizationId: string;

  beforeAll(async () => {
    t = await createTestApp({ env: { SECRETS_KEY: randomBytes(32).toString('base64') } });
    ({ apiKey, organizationId } = await t.createOrganization());
  });
  afterAll(() => t?.close());

  const call = (
    method: 'get' | 'post' | 'put' | 'patch' | 'delete',
    url: string,
    body?: unknown,
  ) => {
    const req = t.http()[method](url).set('X-API-Key', apiKey);
    return body === undefined ? req : req.send(body as object);
  };

  it('every operation, on success and on error', async () => {
    const C = '/api/v1/campaigns';
    const CAMPAIGN = '/api/v1/campaigns/{campaign_id}';

    conforms('get', '/api/v1/health', await t.http().get('/api/v1/health'));
    conforms('get', C, await t.http().get(C));
    conforms('post', C, await call('post', C, { name: '', type: 'x' }));
    const created = conforms(
      'post',
      C,
      await call('post', C, {
        name: 'Responses',
        type: 'patient',
        calling_window: null,
        steps: [
          { friendly_id: 'intake', type: 'webhook' },
          { friendly_id: 'ehr', type: 'ehr_event' },
        ],
        webhook_url: 'http://127.0.0.1:9/unreachable',
        auto_pause: { window: 20, max_failure_ratio: 0.5 },
      }),
    );
    const campaignId = created.body.id;
    const at = (path: string) => path.replace('{campaign_id}', campaignId);
    conforms('get', C, await call('get', `${C}?limit=1`));
    conforms('get', C, await call('get', `${C}?limit=0`));
    conforms('get', CAMPAIGN, await call('get', at(CAMPAIGN)));
    conforms('get', CAMPAIGN, await call('get', `${C}/00000000-0000-4000-8000-000000000000`));
    conforms('patch', CAMPAIGN, await call('patch', at(CAMPAIGN), { max_attempts: 2 }));
    conforms('patch', CAMPAIGN, await call('patch', at(CAMPAIGN), { max_attempts: 0 }));

    // Campaign control and progress, on a campaign of their own (cancel is final).
    const controlled = (await call('post', C, { name: 'Control', type: 'patient' })).body
      .id as string;
    const STATS = '/api/v1/campaigns/{campaign_id}/stats';
    conforms('get', STATS, await call('get', `${C}/${controlled}/stats`));
    conforms('get', STATS, await call('get', `${C}/00000000-0000-4000-8000-000000000000/stats`));
    conforms('get', STATS, await call('get', `${C}/nope/stats`));
    for (const action of ['pause', 'resume', 'cancel']) {
      const path = `/api/v1/campaigns/{campaign_id}/${action}`;
      conforms('post', path, await call('post', `${C}/${controlled}/${action}`));
      conforms(
        'post',
        path,
        await call('post', `${C}/00000000-0000-4000-8000-000000000000/${action}`),
      );
      conforms('post', path, await call('post', `${C}/nope/${action}`));
    }
    conforms(
      'post',
      '/api/v1/campaigns/{campaign_id}/pause',
      await call('post', `${C}/${controlled}/pause`),
    );

    const TARGETS = '/api/v1/campaigns/{campaign_id}/targets';
    const added = conforms(
      'post',
      TARGETS,
      await call('post', at(TARGETS), {
        targets: [
          { phone_number: '+15550100001', external_id: 'A', patient: { first_name: 'A' } },
          { phone_number: { value: '+15550100002', operating_hours: null }, external_id: 'B' },
          { phone_number: '+15550100003', external_id: 'A' },
        ],
      }),
    );
    const [first, second] = added.body.target_ids;
    conforms(
      'post',
      TARGETS,
      await call('post', at(TARGETS), { targets: [{ id: first, phone_number: '+15550100009' }] }),
    );
    conforms('post', TARGETS, await call('post', at(TARGETS), { targets: [] }));

    const IMPORT = '/api/v1/campaigns/{campaign_id}/targets/import';
    const csv = (url: string, text: string) =>
      t.http().post(url).set('X-API-Key', apiKey).set('Content-Type', 'text/csv').send(text);
    const imported = conforms(
      'post',
      IMPORT,
      await csv(at(IMPORT), 'phone_number,external_id\n+15550100020,IMP-1\nbad,IMP-2\n'),
    );
    conforms('post', IMPORT, await csv(at(IMPORT), 'external_id\nX\n'));
    conforms('post', IMPORT, await call('post', at(IMPORT), { targets: [] }));
    conforms(
      'post',
      IMPORT,
      await csv(`${C}/00000000-0000-4000-8000-000000000000/targets/import`, 'phone_number\n'),
    );
    const IMPORTS = '/api/v1/imports/{import_id}';
    conforms('get', IMPORTS, await call('get', `/api/v1/imports/${imported.body.id}`));
    conforms('get', IMPORTS, await call('get', '/api/v1/imports/nope'));
    const IMPORT_ERRORS = '/api/v1/imports/{import_id}/errors';
    conforms('get', IMPORT_ERRORS, await call('get', `/api/v1/imports/${imported.body.id}/errors`));
    conforms('get', IMPORT_ERRORS, await call('get', '/api/v1/imports/nope/errors'));
    conforms('get', TARGETS, await call('get', at(TARGETS)));
    conforms('get', TARGETS, await call('get', `${at(TARGETS)}?status=Nope`));
    const PATIENT = '/api/v1/campaigns/{campaign_id}/patient/targets';
    conforms('get', PATIENT, await call('get', at(PATIENT)));

    const TARGET = '/api/v1/targets/{target_id}';
    conforms('get', TARGET, await call('get', `/api/v1/targets/${first}`));
    conforms('get', TARGET, await call('get', '/api/v1/targets/nope'));
    conforms(
      'patch',
      TARGET,
      await call('patch', `/api/v1/targets/${first}`, { input_data: { a: 1 } }),
    );
    conforms('patch', TARGET, await call('patch', `/api/v1/targets/${first}`, { input_data: 1 }));
    const TIMELINE = '/api/v1/targets/{target_id}/events';
    conforms('get', TIMELINE, await call('get', `/api/v1/targets/${first}/events?limit=1`));
    conforms('get', TIMELINE, await call('get', `/api/v1/targets/${first}/events?limit=0`));
    conforms('get', TIMELINE, await call('get', '/api/v1/targets/nope/events'));
    const TARGET_MESSAGES = '/api/v1/targets/{target_id}/messages';
    // A reply as the inbound route records it, so both message reads answer a message.
    const [text] = await t.sql<{ id: string }>(
      `INSERT INTO messages (organization_id, target_id, provider, provider_message_id, direction,
              to_number, from_number, body, status, keyword, created_at, updated_at, settled_at)
       VALUES ($1, $2, 'twilio', 'SM0001', 'inbound', '+15550000000', '+15550100001', 'STOP',
               'received', 'opt_out', now(), now(), now())
       RETURNING id`,
      [organizationId, first],
    );
    conforms('get', TARGET_MESSAGES, await call('get', `/api/v1/targets/${first}/messages`));
    conforms('get', TARGET_MESSAGES, await call('get', '/api/v1/targets/nope/messages'));
    const MESSAGE = '/api/v1/messages/{message_id}';
    conforms('get', MESSAGE, await call('get', `/api/v1/messages/${text.id}`));
    conforms('get', MESSAGE, await call('get', '/api/v1/messages/nope'));

    const REVIEW = '/api/v1/targets/{target_id}/review';
    await t.sql(`UPDATE targets SET status = 'To review' WHERE id = $1`, [second]);
    conforms(
      'post',
      REVIEW,
      await call('post', `/api/v1/targets/${second}/review`, { action: 'done' }),
    );
    conforms(
      'post',
      REVIEW,
      await call('post', `/api/v1/targets/${second}/review`, { action: 'done' }),
    );
    conforms(
      'post',
      REVIEW,
      await call('post', `/api/v1/targets/${second}/review`, { action: 'x' }),
    );
    conforms('post', REVIEW, await call('post', '/api/v1/targets/nope/review', { action: 'done' }));

    const ONE_STEP = '/api/v1/campaigns/{campaign_id}/targets/{target_id}/step/{friendly_id}';
    conforms(
      'post',
      ONE_STEP,
      await call('post', at(`${C}/{campaign_id}/targets/${first}/step/intake`), { b: 2 }),
    );
    conforms(
      'post',
      ONE_STEP,
      await call('post', at(`${C}/{campaign_id}/targets/${first}/step/intake`), [1]),
    );
    const BATCH = '/api/v1/campaigns/{campaign_id}/targets/step/{friendly_id}';
    conforms(
      'post',
      BATCH,
      await call('post', at(`${C}/{campaign_id}/targets/step/intake`), {
        updates: [
          { target_id: second, input_data: { c: 3 } },
          { external_id: 'nobody', input_data: {} },
        ],
      }),
    );
    conforms(
      'post',
      BATCH,
      await call('post', at(`${C}/{campaign_id}/targets/step/intake`), { updates: [] }),
    );
    const EHR = '/api/v1/campaigns/{campaign_id}/ehr-event/{friendly_id}';
    conforms(
      'post',
      EHR,
      await call('post', at(`${C}/{campaign_id}/ehr-event/ehr`), {
        event_type: 'appointment_created',
        event_data: { at: '2026-01-01' },
        target_id: first,
      }),
    );
    conforms('post', EHR, await call('post', at(`${C}/{campaign_id}/ehr-event/ehr`), {}));

    const CALLS = '/api/v1/campaigns/{campaign_id}/calls';
    conforms('post', CALLS, await call('post', at(CALLS), { target_ids: [first, second, 'nope'] }));
    conforms('post', CALLS, await call('post', at(CALLS), { count: 1, target_ids: [first] }));

    const LOGS = '/api/v1/call-logs';
    const logs = await waitFor(
      () => call('get', `${LOGS}?campaign_id=${campaignId}`),
      (res) => res.body.call_logs?.length >= 1,
      60_000,
    );
    conforms('get', LOGS, logs);
    conforms('get', LOGS, await call('get', `${LOGS}?from_date=yesterday`));
    const LOG = '/api/v1/call-logs/{call_log_id}';
    conforms(
      'get',
      LOG,
      await call('get', `${LOGS}/${logs.body.call_logs[0].id}?include_recordings=true`),
    );
    conforms('get', LOG, await call('get', `${LOGS}/99999999`));
    conforms('get', LOG, await call('get', `${LOGS}/abc`));

    const LIVE = '/api/v1/live-calls';
    conforms('get', LIVE, await call('get', `${LIVE}?call_log_id=${logs.body.call_logs[0].id}`));
    conforms('get', LIVE, await call('get', `${LIVE}?user_phone_number=%2B15550109999`));
    conforms('get', LIVE, await call('get', `${LIVE}?key=mrn`));
    const VARIABLES = '/api/v1/campaigns/{campaign_id}/variables';
    conforms('get', VARIABLES, await call('get', at(VARIABLES)));
    conforms(
      'get',
      VARIABLES,
      await call('get', `${C}/00000000-0000-4000-8000-000000000000/variables`),
    );

    const DELIVERIES = '/api/v1/campaigns/{campaign_id}/webhooks/deliveries';
    const deliveries = await waitFor(
      () => call('get', at(DELIVERIES)),
      (res) => res.body.deliveries?.length >= 1,
      60_000,
    );
    conforms('get', DELIVERIES, deliveries);
    conforms('get', DELIVERIES, await call('get', `${at(DELIVERIES)}?status=lost`));
    const DELIVERY = '/api/v1/webhook-deliveries/{delivery_id}';
    conforms(
      'get',
      DELIVERY,
      await call('get', `/api/v1/webhook-deliveries/${deliveries.body.deliveries[0].id}`),
    );
    conforms('get', DELIVERY, await call('get', '/api/v1/webhook-deliveries/nope'));
    const RERUN = '/api/v1/campaigns/{campaign_id}/webhooks/rerun-failed';
    conforms(
      'post',
      RERUN,
      await call('post', at(RERUN), { from_date: '2020-01-01', to_date: '2099-01-01' }),
    );
    conforms('post', RERUN, await call('post', at(RERUN), { from_date: '2020-01-01' }));
    const ROTATE = '/api/v1/campaigns/{campaign_id}/webhook-secret/rotate';
    conforms('post', ROTATE, await call('post', at(ROTATE)));

    conforms(
      'delete',
      TARGETS,
      await call('delete', at(TARGETS), { target_ids: [second, 'nope'] }),
    );
    conforms('delete', TARGETS, await call('delete', at(TARGETS), { target_ids: 'x' }));

    const BLACKLISTS = '/api/v1/blacklists';
    const blacklist = conforms('post', BLACKLISTS, await call('post', BLACKLISTS, { name: 'DNC' }));
    conforms('post', BLACKLISTS, await call('post', BLACKLISTS, {}));
    conforms('get', BLACKLISTS, await call('get', BLACKLISTS));
    const BLACKLIST = '/api/v1/blacklists/{blacklist_id}';
    conforms('get', BLACKLIST, await call('get', `${BLACKLISTS}/${blacklist.body.id}`));
    conforms('get', BLACKLIST, await call('get', `${BLACKLISTS}/nope`));
    const NUMBERS = '/api/v1/blacklists/{blacklist_id}/phone-numbers';
    const numbers = `${BLACKLISTS}/${blacklist.body.id}/phone-numbers`;
    conforms(
      'post',
      NUMBERS,
      await call('post', numbers, {
        phone_numbers: [{ phone_number: '+15550100007', reason: 'asked' }],
      }),
    );
    conforms('post', NUMBERS, await call('post', numbers, { phone_numbers: [] }));
    conforms('get', NUMBERS, await call('get', numbers));
    conforms('get', NUMBERS, await call('get', `${numbers}?skip=-1`));
    conforms('delete', NUMBERS, await call('delete', numbers, { phone_numbers: ['+15550100007'] }));
    conforms('delete', NUMBERS, await call('delete', numbers, { phone_numbers: 5 }));

    const POLICY = '/api/v1/compliance/policy';
    conforms('get', POLICY, await call('get', POLICY));
    const policy = {
      quiet_hours: { start: '08:00', end: '20:00' },
      state_rules: true,
      max_calls_per_number: { per_24h: 3, per_7d: null },
      restricted_dates: [{ date: '2026-12-25', reason: 'Christmas Day' }],
      default_time_zone: 'America/Chicago',
    };
    conforms('put', POLICY, await call('put', POLICY, policy));
    conforms('put', POLICY, await call('put', POLICY, { ...policy, quiet_hours: 'night' }));
    const DECISIONS = '/api/v1/compliance/decisions';
    conforms('get', DECISIONS, await call('get', DECISIONS));
    conforms('get', DECISIONS, await call('get', `${DECISIONS}?from=yesterday`));
    const DNC = '/api/v1/compliance/do-not-call';
    conforms(
      'post',
      DNC,
      await call('post', DNC, {
        phone_numbers: [{ phone_number: '+15550100007', reason: 'letter' }],
      }),
    );
    conforms('post', DNC, await call('post', DNC, { phone_numbers: [{ phone_number: 'x' }] }));
    conforms('get', DNC, await call('get', DNC));
    conforms('get', DNC, await call('get', `${DNC}?include_removed=maybe`));
    conforms(
      'delete',
      DNC,
      await call('delete', DNC, { phone_numbers: ['+15550100007', '+15550100008'], reason: 'ok' }),
    );
    conforms('get', DNC, await call('get', `${DNC}?include_removed=true`));
    conforms('delete', DNC, await call('delete', DNC, { phone_numbers: ['+15550100007'] }));

    const RETENTION = '/api/v1/compliance/retention';
    const retention = {
      windows: {
        transcripts: 30,
        recordings: null,
        input_data: null,
        messages: null,
        finished_targets: null,
      },
      redact_transcripts: false,
    };
    conforms('get', RETENTION, await call('get', RETENTION));
    conforms('put', RETENTION, await call('put', RETENTION, retention));
    conforms('put', RETENTION, await call('put', RETENTION, { windows: { transcripts: -1 } }));
    conforms('post', `${RETENTION}/run`, await call('post', `${RETENTION}/run`, {}));
    conforms('get', `${RETENTION}/runs`, await call('get', `${RETENTION}/runs`));
    conforms('get', `${RETENTION}/runs`, await call('get', `${RETENTION}/runs?limit=0`));
    const CAMPAIGN_RETENTION = `${RETENTION}/campaigns/{campaign_id}`;
    const campaignIdForRetention = (
      await call('post', '/api/v1/campaigns', { name: 'Retention', type: 'patient' })
    ).body.id;
    const campaignRetention = `${RETENTION}/campaigns/${campaignIdForRetention}`;
    conforms('get', CAMPAIGN_RETENTION, await call('get', campaignRetention));
    conforms('put', CAMPAIGN_RETENTION, await call('put', campaignRetention, retention));
    conforms('put', CAMPAIGN_RETENTION, await call('put', campaignRetention, {}));
    conforms('delete', CAMPAIGN_RETENTION, await call('delete', campaignRetention));
    conforms(
      'get',
      CAMPAIGN_RETENTION,
      await call('get', `${RETENTION}/campaigns/00000000-0000-4000-8000-000000000000`),
    );
    const PATIENTS = '/api/v1/patients';
    conforms('get', PATIENTS, await call('get', `${PATIENTS}?phone_number=%2B15550100007`));
    conforms('get', PATIENTS, await call('get', PATIENTS));
    const ERASE = '/api/v1/patients/erase';
    conforms(
      'post',
      ERASE,
      await call('post', ERASE, { external_id: 'nobody', reason: 'request' }),
    );
    conforms('post', ERASE, await call('post', ERASE, { reason: 'request' }));

    const KEYS = '/api/v1/api-keys';
    conforms('post', KEYS, await call('post', KEYS, { name: 'ehr', role: 'integration' }));
    conforms('post', KEYS, await call('post', KEYS, { name: 'ehr', role: 'root' }));
    conforms('get', KEYS, await call('get', KEYS));
    const KEY = '/api/v1/api-keys/{api_key_id}';
    const spare = await t.app.get(OrganizationService).createApiKey(organizationId, 'spare');
    conforms('delete', KEY, await call('delete', `/api/v1/api-keys/${spare.id}`));
    conforms(
      'delete',
      KEY,
      await call('delete', '/api/v1/api-keys/00000000-0000-4000-8000-000000000000'),
    );

    const AUDIT = '/api/v1/audit-events';
    conforms('get', AUDIT, await call('get', `${AUDIT}?action=target.read&limit=2`));
    conforms('get', AUDIT, await call('get', `${AUDIT}?campaign_id=nope`));
    conforms('get', `${AUDIT}/verify`, await call('get', `${AUDIT}/verify`));
    // People, sessions, the second factor and single sign-on (not configured here).
    const USERS = '/api/v1/users';
    const USER = '/api/v1/users/{user_id}';
    const NOBODY = '00000000-0000-4000-8000-000000000000';
    const invited = conforms(
      'post',
      USERS,
      await call('post', USERS, { email: 'dana@responses.example', name: 'Dana', role: 'admin' }),
    );
    conforms('post', USERS, await call('post', USERS, { email: 'x', name: 'X', role: 'root' }));
    conforms(
      'post',
      USERS,
      await call('post', USERS, { email: 'dana@responses.example', name: 'Dana', role: 'admin' }),
    );
    conforms('get', USERS, await call('get', USERS));
    conforms('patch', USER, await call('patch', `${USERS}/${invited.body.id}`, { name: 'Dana R' }));
    conforms('patch', USER, await call('patch', `${USERS}/${NOBODY}`, { name: 'Nobody' }));
    conforms('patch', USER, await call('patch', `${USERS}/${invited.body.id}`, { role: 'root' }));
    const REINVITE = '/api/v1/users/{user_id}/invitations';
    const link = conforms(
      'post',
      REINVITE,
      await call('post', `${USERS}/${invited.body.id}/invitations`),
    );
    conforms('post', REINVITE, await call('post', `${USERS}/${NOBODY}/invitations`));
    const ACCEPT = '/api/v1/invitations/accept';
    const password = 'a password long enough';
    conforms('post', ACCEPT, await t.http().post(ACCEPT).send({ token: 'nope', password }));
    conforms('post', ACCEPT, await t.http().post(ACCEPT).send({ token: 'x', password: 'short' }));
    conforms('post', ACCEPT, await t.http().post(ACCEPT).send({}));
    conforms(
      'post',
      ACCEPT,
      await t.http().post(ACCEPT).send({ token: link.body.invitation.token, password }),
    );
    const SESSIONS = '/api/v1/sessions';
    const email = 'dana@responses.example';
    conforms('post', SESSIONS, await t.http().post(SESSIONS).send({ email, password: 'wrong!' }));
    conforms('post', SESSIONS, await t.http().post(SESSIONS).send({}));
    const signed = conforms(
      'post',
      SESSIONS,
      await t.http().post(SESSIONS).send({ email, password }),
    );
    const cookie = ([] as string[]).concat(signed.headers['set-cookie'])[0].split(';')[0];
    const csrf = signed.body.session.csrf_token as string;
    const asPerson = (method: 'get' | 'post' | 'put' | 'delete', url: string, body?: object) => {
      const req = t.http()[method](url).set('Cookie', cookie).set('X-CSRF-Token', csrf);
      return body ? req.send(body) : req;
    };
    conforms('get', '/api/v1/me', await asPerson('get', '/api/v1/me'));
    conforms('get', '/api/v1/me', await call('get', '/api/v1/me'));
    conforms('get', '/api/v1/me', await t.http().get('/api/v1/me'));
    const TOTP = '/api/v1/me/totp';
    conforms('post', TOTP, await asPerson('post', TOTP));
    conforms('post', TOTP, await call('post', TOTP));
    const CONFIRM = '/api/v1/me/totp/confirm';
    conforms('post', CONFIRM, await asPerson('post', CONFIRM, { code: '12' }));
    conforms('post', CONFIRM, await asPerson('post', CONFIRM, {}));
    const RESET = '/api/v1/users/{user_id}/totp';
    conforms('delete', RESET, await call('delete', `${USERS}/${invited.body.id}/totp`));
    conforms('delete', RESET, await call('delete', `${USERS}/${NOBODY}/totp`));
    const SIGN_IN_POLICY = '/api/v1/sign-in-policy';
    conforms('get', SIGN_IN_POLICY, await call('get', SIGN_IN_POLICY));
    conforms('put', SIGN_IN_POLICY, await call('put', SIGN_IN_POLICY, { require_totp: false }));
    conforms('put', SIGN_IN_POLICY, await call('put', SIGN_IN_POLICY, { require_totp: 'maybe' }));
    conforms('get', '/api/v1/sso', await t.http().get('/api/v1/sso'));
    conforms('get', '/api/v1/sso/login', await t.http().get('/api/v1/sso/login'));
    conforms('get', '/api/v1/sso/callback', await t.http().get('/api/v1/sso/callback?code=x'));
    const OUT = '/api/v1/sessions/current';
    conforms('delete', OUT, await asPerson('delete', OUT));
    conforms('delete', OUT, await asPerson('delete', OUT));
    conforms('delete', USER, await call('delete', `${USERS}/${invited.body.id}`));
    conforms('delete', USER, await call('delete', `${USERS}/${invited.body.id}`));

    const CONNECTIONS = '/api/v1/provider-connections';
    const CONNECTION = '/api/v1/provider-connections/{connection_id}';
    const twilio = {
      type: 'twilio',
      name: 'Twilio',
      credentials: { account_sid: 'AC0123456789abcdef0123456789abcdef', auth_token: 'token-1234' },
      settings: { twiml_url: 'https://example.com/t.xml' },
      is_default: false,
    };
    const connection = conforms('post', CONNECTIONS, await call('post', CONNECTIONS, twilio));
    expect(connection.status).toBe(201);
    conforms('post', CONNECTIONS, await call('post', CONNECTIONS, twilio));
    conforms('post', CONNECTIONS, await call('post', CONNECTIONS, { type: 'fax' }));
    conforms('get', CONNECTIONS, await call('get', CONNECTIONS));
    conforms('get', CONNECTIONS, await call('get', `${CONNECTIONS}?limit=0`));
    const connectionUrl = `${CONNECTIONS}/${connection.body.id}`;
    conforms('get', CONNECTION, await call('get', connectionUrl));
    conforms('get', CONNECTION, await call('get', `${CONNECTIONS}/nope`));
    conforms('patch', CONNECTION, await call('patch', connectionUrl, { name: 'Twilio 2' }));
    conforms('patch', CONNECTION, await call('patch', connectionUrl, { is_default: 'maybe' }));
    conforms('delete', CONNECTION, await call('delete', connectionUrl));
    conforms('delete', CONNECTION, await call('delete', connectionUrl));

    // Providers' events carry no API key; their success bodies are in telephony-events.e2e-spec.
    const EVENTS = '/api/v1/telephony/{connection}/events';
    conforms('post', EVENTS, await t.http().post('/api/v1/telephony/nowhere/events').send({}));
    conforms('post', EVENTS, await t.http().post('/api/v1/telephony/simulated/events').send({}));
    // Their texts' reports and replies too (the bodies are in providers-twilio-messaging.e2e-spec).
    const MESSAGES = '/api/v1/telephony/{connection_id}/messages';
    conforms('post', MESSAGES, await t.http().post('/api/v1/telephony/nowhere/messages').send({}));

    const documented = Object.entries(DOCUMENT.paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method} ${path}`),
    );
    expect(documented.filter((operation) => !seen.has(operation))).toEqual([]);
  });
});
