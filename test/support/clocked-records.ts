import { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { OrganizationService } from '../../src/modules/organization/application/organization.service.js';
import { OrganizationRepository } from '../../src/modules/organization/application/ports/organization.repository.js';
import type { FakeClock } from '../../src/testing/fake-clock.js';

/** When the objects are created, and when they are changed (an hour later: past the key's minute). */
export const CREATED_AT = '2026-04-06T09:15:30.250Z';
export const CHANGED_AT = '2026-04-06T10:15:30.750Z';

/** A field whose value is an instant: `created_at`, `removed.at`, `state_changed_at`, ... */
const TIME_KEY = /(^|_)(at|time|date)$/;

/** Every instant in `body` (nested objects and arrays too), by path: `items[2].at`. */
export function timesIn(body: unknown, path = ''): Record<string, string> {
  if (Array.isArray(body)) {
    return Object.assign({}, ...body.map((v, i) => timesIn(v, `${path}[${i}]`)));
  }
  if (body === null || typeof body !== 'object') return {};
  const found: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    const at = path ? `${path}.${key}` : key;
    if (TIME_KEY.test(key) && typeof value === 'string') found[at] = value;
    else Object.assign(found, timesIn(value, at));
  }
  return found;
}

/** `times` with every instant `at`, but those of `except` (keys or paths), which keep theirs. */
export function allAt(
  times: Record<string, string>,
  at: string,
  except: Record<string, string> = {},
): Record<string, string> {
  return Object.fromEntries(Object.keys(times).map((path) => [path, except[path] ?? at]));
}

export interface ClockedRecords {
  /** Response bodies of the creations, made with the clock at CREATED_AT. */
  created: Record<string, unknown>;
  /** Response bodies after the changes, made with the clock at CHANGED_AT. */
  changed: Record<string, unknown>;
  /** The organization and its keys as stored (no route shows them). */
  organization: unknown;
  apiKeys: unknown[];
}

/**
 * Creates an organization-scoped object of every kind through HTTP with the clock at CREATED_AT, then
 * changes each with the clock at CHANGED_AT, and returns what the service answered: the service must
 * have stamped every time with the clock, never the database's or the machine's.
 */
export async function recordEverything(
  app: INestApplication,
  clock: FakeClock,
): Promise<ClockedRecords> {
  const http = () => request(app.getHttpServer());
  const organizations = app.get(OrganizationService);
  clock.set(CREATED_AT);
  const organization = await organizations.createOrganization(`clocked-${Date.now()}`);
  const { key: apiKey } = await organizations.createApiKey(organization.id, 'calls');
  const spare = await organizations.createApiKey(organization.id, 'spare');
  const ok = async (req: request.Test, status = [200, 201]) => {
    const res = await req.set('X-API-Key', apiKey);
    if (!status.includes(res.status)) {
      throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body;
  };

  const campaign = await ok(
    http().post('/api/v1/campaigns').send({ name: 'Clocked', type: 'patient' }),
  );
  const [targetId] = (
    await ok(
      http()
        .post(`/api/v1/campaigns/${campaign.id}/targets`)
        .send({ targets: [{ phone_number: '+15550170001', input_data: { a: 1 } }] }),
    )
  ).target_ids;
  const target = await ok(http().get(`/api/v1/targets/${targetId}`));
  const imported = await ok(
    http()
      .post(`/api/v1/campaigns/${campaign.id}/targets/import?dry_run=true`)
      .set('Content-Type', 'text/csv')
      .send('phone_number\n+15550170002\n'),
    [200, 201, 202],
  );
  const blacklist = await ok(http().post('/api/v1/blacklists').send({ name: 'dnc' }));
  await ok(
    http()
      .post(`/api/v1/blacklists/${blacklist.id}/phone-numbers`)
      .send({ phone_numbers: [{ phone_number: '+15550170003' }] }),
  );
  const listed = await ok(http().get(`/api/v1/blacklists/${blacklist.id}`));
  const connection = await ok(
    http()
      .post('/api/v1/provider-connections')
      .send({
        type: 'twilio',
        name: 'Twilio',
        credentials: {
          account_sid: 'AC0123456789abcdef0123456789abcdef',
          auth_token: 'twilio-auth-token-7f3e9c1a',
        },
        settings: {
          from_number: '+15550100000',
          twiml_url: 'https://example.com/twiml/reminder.xml',
        },
      }),
  );
  const doNotCall = await ok(
    http()
      .post('/api/v1/compliance/do-not-call')
      .send({ phone_numbers: [{ phone_number: '+15550170004', reason: 'asked' }] }),
  );

  clock.set(CHANGED_AT);
  // Read back: the rotation answers the secret alone. Nothing else changed the campaign yet.
  await ok(http().post(`/api/v1/campaigns/${campaign.id}/webhook-secret/rotate`));
  const rotated = await ok(http().get(`/api/v1/campaigns/${campaign.id}`));
  const updatedCampaign = await ok(
    http().patch(`/api/v1/campaigns/${campaign.id}`).send({ max_attempts: 5 }),
  );
  const paused = await ok(http().post(`/api/v1/campaigns/${campaign.id}/pause`));
  const updatedTarget = await ok(
    http()
      .patch(`/api/v1/targets/${targetId}`)
      .send({ input_data: { b: 2 } }),
  );
  await ok(
    http()
      .delete(`/api/v1/campaigns/${campaign.id}/targets`)
      .send({ target_ids: [targetId] }),
  );
  const timeline = await ok(http().get(`/api/v1/targets/${targetId}/events`));
  await ok(
    http()
      .post(`/api/v1/blacklists/${blacklist.id}/phone-numbers`)
      .send({ phone_numbers: [{ phone_number: '+15550170005' }] }),
  );
  const relisted = await ok(http().get(`/api/v1/blacklists/${blacklist.id}`));
  const updatedConnection = await ok(
    http().patch(`/api/v1/provider-connections/${connection.id}`).send({ name: 'Twilio main' }),
  );
  await ok(
    http()
      .delete('/api/v1/compliance/do-not-call')
      .send({ phone_numbers: ['+15550170004'], reason: 'asked to be called again' }),
  );
  const removedDoNotCall = await ok(
    http().get('/api/v1/compliance/do-not-call').query({ include_removed: true }),
  );
  await ok(http().delete(`/api/v1/api-keys/${spare.id}`));

  const stored = app.get(OrganizationRepository);
  return {
    created: { campaign, target, imported, blacklist, listed, connection, doNotCall },
    changed: {
      updatedCampaign,
      rotated,
      paused,
      updatedTarget,
      timeline,
      relisted,
      updatedConnection,
      removedDoNotCall,
    },
    organization: await stored.findOrganizationById(organization.id),
    // By name: both were created at the same instant, so the list's (created_at, id) order is the ids'.
    apiKeys: (await stored.listApiKeys(organization.id)).sort((a, b) =>
      a.name.localeCompare(b.name),
    ),
  };
}

/** What `recordEverything` must have answered, on the fakes and on the SQL adapters alike. */
export function expectClockedRecords(records: ClockedRecords): void {
  for (const [name, body] of Object.entries(records.created)) {
    const times = timesIn(body);
    expect({ [name]: times }).toEqual({ [name]: allAt(times, CREATED_AT) });
  }
  for (const [name, body] of Object.entries(records.changed)) {
    const times = timesIn(body);
    // The timeline's first event is the target's creation; the deleted number's entry was listed then.
    const kept = {
      created_at: CREATED_AT,
      'items[2].at': CREATED_AT,
      'phone_numbers[0].created_at': CREATED_AT,
    };
    expect({ [name]: times }).toEqual({ [name]: allAt(times, CHANGED_AT, kept) });
  }
  // Each object has the times it should (an empty list of times would pass the loops above).
  expect(Object.keys(timesIn(records.created.campaign)).sort()).toEqual(
    ['created_at', 'updated_at'].sort(),
  );
  expect(timesIn(records.changed.rotated)).toEqual({
    created_at: CREATED_AT,
    updated_at: CHANGED_AT,
  });
  expect(timesIn(records.changed.paused)).toMatchObject({ state_changed_at: CHANGED_AT });
  expect(timesIn(records.changed.updatedTarget)).toEqual({
    created_at: CREATED_AT,
    updated_at: CHANGED_AT,
  });
  expect(timesIn(records.created.target)).toMatchObject({ updated_at: CREATED_AT });
  expect(timesIn(records.created.imported)).toMatchObject({ created_at: CREATED_AT });
  expect(timesIn(records.created.listed)).toEqual({
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
  });
  expect(timesIn(records.changed.relisted)).toEqual({
    created_at: CREATED_AT,
    updated_at: CHANGED_AT,
  });
  expect(timesIn(records.changed.updatedConnection)).toEqual({
    created_at: CREATED_AT,
    updated_at: CHANGED_AT,
  });
  expect(timesIn(records.created.doNotCall)).toEqual({ 'added[0].created_at': CREATED_AT });
  expect(timesIn(records.changed.removedDoNotCall)).toEqual({
    'phone_numbers[0].created_at': CREATED_AT,
    'phone_numbers[0].removed.removed_at': CHANGED_AT,
  });
  expect(
    (records.changed.timeline as { items: { kind: string; at: string }[] }).items.map((e) => [
      e.kind,
      e.at,
    ]),
  ).toEqual([
    ['deleted', CHANGED_AT],
    ['input_edited', CHANGED_AT],
    ['added', CREATED_AT],
  ]);
  expect(records.organization).toMatchObject({ createdAt: new Date(CREATED_AT) });
  expect(records.apiKeys).toEqual([
    expect.objectContaining({
      name: 'calls',
      createdAt: new Date(CREATED_AT),
      // Refreshed at most once a minute: first used at CREATED_AT, then an hour later.
      lastUsedAt: new Date(CHANGED_AT),
      revokedAt: null,
    }),
    expect.objectContaining({
      name: 'spare',
      createdAt: new Date(CREATED_AT),
      lastUsedAt: null,
      revokedAt: new Date(CHANGED_AT),
    }),
  ]);
}
