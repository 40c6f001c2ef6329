import { randomBytes } from 'crypto';
import fc from 'fast-check';
import { readFileSync } from 'fs';
import { join } from 'path';
import Retell from 'retell-sdk';
import { Webhook } from 'standardwebhooks';
import twilio from 'twilio';
import { createTestApp, TestApp } from '../support/test-app.js';

/**
 * Property: whatever a client with a valid key sends (random or malformed bodies, queries and ids), the
 * service never answers 5xx, every 422 is FastAPI's body, every other error is `{"detail": "..."}`, and
 * the process stays up. Inputs come from every operation's request schema in the committed OpenAPI
 * document (values that fit it, with hostile ones mixed in), from mutations of a valid body, and from
 * shapeless JSON. Routes are the spec's and DECISIONS' (unimplemented ones just 404), the document's,
 * and whatever else the app serves; then CSV files for the import route and events signed with each
 * provider connection's own secret for the provider events route.
 *
 * Seeded (FUZZ_SEED, default 31: every run sends the same requests, so CI is repeatable; another seed
 * explores further), FUZZ_RUNS requests per route (default 200), and each route bounded in time
 * (FUZZ_ROUTE_MS, default 4 s: on a slow machine a route sends fewer, never more).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const SEED = Number(process.env.FUZZ_SEED ?? 31);
const ROUTE_MS = Number(process.env.FUZZ_ROUTE_MS ?? 4000);
/** fast-check's settings for one route. */
const budget = (numRuns = RUNS) => ({
  numRuns,
  seed: SEED,
  // A failure prints its seed and path; FUZZ_SEED=<seed> replays it.
  endOnFailure: true,
  interruptAfterTimeLimit: ROUTE_MS,
  markInterruptAsFailure: false,
});
const OPENAPI = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'openapi.json'), 'utf8'),
);
const SPEC_ROUTES: [string, string][] = [
  ['GET', '/api/v1/health'],
  ['POST', '/api/v1/campaigns'],
  ['GET', '/api/v1/campaigns'],
  ['GET', '/api/v1/campaigns/{campaign_id}'],
  ['PATCH', '/api/v1/campaigns/{campaign_id}'],
  ['POST', '/api/v1/campaigns/{campaign_id}/targets'],
  ['DELETE', '/api/v1/campaigns/{campaign_id}/targets'],
  ['GET', '/api/v1/campaigns/{campaign_id}/targets'],
  ['GET', '/api/v1/campaigns/{campaign_id}/patient/targets'],
  ['POST', '/api/v1/campaigns/{campaign_id}/calls'],
  ['POST', '/api/v1/campaigns/{campaign_id}/targets/step/{friendly_id}'],
  ['POST', '/api/v1/campaigns/{campaign_id}/targets/{target_id}/step/{friendly_id}'],
  ['POST', '/api/v1/campaigns/{campaign_id}/ehr-event/{friendly_id}'],
  ['POST', '/api/v1/campaigns/{campaign_id}/webhooks/rerun-failed'],
  ['GET', '/api/v1/campaigns/{campaign_id}/webhooks/deliveries'],
  ['GET', '/api/v1/webhook-deliveries/{delivery_id}'],
  ['GET', '/api/v1/targets/{target_id}'],
  ['PATCH', '/api/v1/targets/{target_id}'],
  ['GET', '/api/v1/call-logs'],
  ['GET', '/api/v1/call-logs/{call_log_id}'],
  ['POST', '/api/v1/blacklists'],
  ['GET', '/api/v1/blacklists'],
  ['GET', '/api/v1/blacklists/{blacklist_id}'],
  ['POST', '/api/v1/blacklists/{blacklist_id}/phone-numbers'],
  ['DELETE', '/api/v1/blacklists/{blacklist_id}/phone-numbers'],
  ['GET', '/api/v1/blacklists/{blacklist_id}/phone-numbers'],
];

/** Every operation of the committed document, and the spec's routes it might lack. */
const ROUTES: [string, string][] = [
  ...SPEC_ROUTES,
  ...Object.entries(OPENAPI.paths ?? {}).flatMap(([path, item]) =>
    Object.keys(item as object)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => [m.toUpperCase(), path] as [string, string]),
  ),
].filter(([m, p], i, all) => all.findIndex(([m2, p2]) => m2 === m && p2 === p) === i);

/** Field and query names the endpoints read, so random objects reach past the first check. */
const BODY_KEYS = [
  'targets',
  'launch',
  'allow_duplicates',
  'id',
  'external_id',
  'phone_number',
  'fallback_phone_number',
  'value',
  'operating_hours',
  'input_data',
  'pre_call_data',
  'patient',
  'first_name',
  'date_of_birth',
  'extra_data',
  'target_ids',
  'only_if_not_started',
  'count',
  'prioritize_oldest',
  'updates',
  'target_id',
  'event_type',
  'event_data',
  'from_date',
  'to_date',
  'name',
  'type',
  'caller_id',
  'max_attempts',
  'retry_delay_minutes',
  'max_concurrent_calls',
  'calling_window',
  'steps',
  'friendly_id',
  'on_receive',
  'entry_step',
  'blacklist_ids',
  'webhook_url',
  'phone_numbers',
  'reason',
  'level',
  'comment',
  'description',
  'monday',
  'tz',
  'start',
  'end',
];
const QUERY_KEYS = [
  'page',
  'limit',
  'status',
  'from_date',
  'to_date',
  'from_last_call_date',
  'to_last_call_date',
  'skip',
  'include_recordings',
  'include_removed',
  'phone_number',
  'campaign_id',
  'state',
];

/** A JSON leaf whose text is written as is (numbers JSON.stringify cannot produce). */
class Raw {
  constructor(readonly text: string) {}
}

function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const weirdStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '💥',
  'ß',
  '../..',
  '%',
  '%zz',
  "' OR 1=1 --",
  'null',
  'true',
  '0',
  '-1',
  '1.5',
  '1e3',
  '99999999999999999999999',
  '+15550100001',
  '+1 (555) 010-0001',
  '00000000-0000-0000-0000-000000000000',
  '2026-01-01',
  '2026-02-30',
  '2026-01-01T10:00:00+99:99',
  '9999-12-31T23:59:59Z',
  '0000-01-01',
  'To review',
  'Pending',
  'patient',
  'webhook',
  'merge_and_schedule',
  'intake',
  'appointment_created',
);
/** Only in bodies: in a URL they would pass Node's 16 kB header limit (431 before the app sees them). */
const longStrings = fc.constantFrom(
  'x'.repeat(3000),
  // Long and incompressible: too big for a btree index entry if it reaches one.
  Array.from({ length: 3000 }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join(
    '',
  ),
);
const anyString = fc.oneof(
  weirdStrings,
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ maxLength: 12 }),
);
const hugeNumbers = fc.constantFrom(
  new Raw('1e999'),
  new Raw('-1e999'),
  new Raw('123456789012345678901234567890'),
  new Raw('1.0'),
  new Raw('-0'),
  new Raw('9223372036854775808'),
  new Raw('5e-324'),
);
const numbers = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, 1, -1, 10001, 2 ** 53),
  hugeNumbers,
);

const { json } = fc.letrec<{ json: unknown; leaf: unknown; object: unknown }>((tie) => ({
  leaf: fc.oneof(anyString, longStrings, numbers, fc.boolean(), fc.constant(null)),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...BODY_KEYS), anyString), tie('json'), {
    maxKeys: 6,
  }),
  json: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    tie('object'),
    fc.array(tie('json'), { maxLength: 4 }),
  ),
}));

/** Objects built from the endpoints' own field names, nested the way their bodies are. */
const knownObject = fc.dictionary(fc.constantFrom(...BODY_KEYS), json, { minKeys: 1, maxKeys: 6 });
const plausibleBody = fc.dictionary(
  fc.constantFrom(...BODY_KEYS),
  fc.oneof(json, fc.array(knownObject, { maxLength: 3 }), knownObject),
  { minKeys: 1, maxKeys: 5 },
);

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; text: string; contentType: string };

const body: fc.Arbitrary<Body> = fc.oneof(
  { arbitrary: fc.constant<Body>({ kind: 'none' }), weight: 1 },
  { arbitrary: plausibleBody.map<Body>((value) => ({ kind: 'json', value })), weight: 6 },
  { arbitrary: json.map<Body>((value) => ({ kind: 'json', value })), weight: 3 },
  {
    arbitrary: fc
      .oneof(
        fc.constantFrom(
          '{',
          '{"targets": [',
          '[1,',
          '{"a":1}}',
          'nul',
          '"\\x"',
          '{"a": 01}',
          '\u0000',
        ),
        fc.string({ unit: 'binary', maxLength: 30 }),
      )
      .map<Body>((text) => ({ kind: 'raw', text, contentType: 'application/json' })),
    weight: 2,
  },
  {
    arbitrary: fc
      .string({ maxLength: 20 })
      .map<Body>((text) => ({ kind: 'raw', text, contentType: 'text/plain' })),
    weight: 1,
  },
);

/** Values JavaScript objects treat specially, dropped anywhere a schema allows a value. */
const hostile = fc.constantFrom<unknown>(
  { constructor: 'x' },
  { constructor: { prototype: { polluted: true } } },
  { toString: 1, valueOf: 2, hasOwnProperty: 3 },
  JSON.parse('{"__proto__": {"polluted": true}}'),
  new Raw(
    '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
  ),
);

function resolve(schema: any): any {
  let out = schema;
  while (out?.$ref) {
    const path = String(out.$ref).replace(/^#\//, '').split('/');
    out = path.reduce((node: any, key: string) => node?.[key], OPENAPI);
  }
  return out ?? {};
}

/**
 * Values shaped by a JSON schema of the document: mostly fitting it (so requests get past the first
 * check and into services and SQL), with a hostile or shapeless value now and then at any depth.
 */
function fromSchema(raw: unknown, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  const variants = [schema.anyOf, schema.oneOf, schema.allOf].find(Array.isArray);
  let fitting: fc.Arbitrary<unknown>;
  if (variants) {
    fitting = fc.oneof(...variants.map((v: unknown) => fromSchema(v, depth + 1)));
  } else if (schema.enum) {
    fitting = fc.constantFrom(...schema.enum);
  } else if (schema.type === 'object' && schema.properties && depth < 6) {
    const required = new Set<string>(schema.required ?? []);
    const entries = Object.entries(schema.properties).map(
      ([key, property]) => [key, fromSchema(property, depth + 1)] as const,
    );
    fitting = fc.record(Object.fromEntries(entries), {
      requiredKeys: [...required].filter((k) => k in schema.properties),
    });
  } else if (schema.type === 'object') {
    fitting = fc.dictionary(anyString, json, { maxKeys: 3 });
  } else if (schema.type === 'array') {
    fitting = fc.array(fromSchema(schema.items ?? {}, depth + 1), { maxLength: 3 });
  } else if (schema.type === 'integer' || schema.type === 'number') {
    const min = schema.minimum ?? -10;
    const max = schema.maximum ?? min + 100;
    fitting = fc.oneof(fc.integer({ min, max }), numbers);
  } else if (schema.type === 'boolean') {
    fitting = fc.oneof(fc.boolean(), fc.constantFrom<unknown>('true', 0, 1, 'no'));
  } else if (schema.type === 'string' && schema.format === 'uuid') {
    fitting = fc.oneof(fc.uuid(), fc.constantFrom('$campaign', '$target', '$blacklist'));
  } else if (schema.type === 'string' && schema.format === 'date-time') {
    fitting = fc.oneof(
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      fc.constantFrom('2026-01-01', '1700000000', '2026-02-30', '2026-01-01T25:00'),
    );
  } else if (schema.type === 'string') {
    fitting = fc.oneof(weirdStrings, fc.constantFrom('+15550100001', 'intake', 'x'));
  } else {
    fitting = json;
  }
  return fc.oneof(
    { arbitrary: fitting, weight: 8 },
    { arbitrary: hostile, weight: 1 },
    { arbitrary: json, weight: 1 },
  );
}

/** A body drawn from the operation's request schema, when it has one. */
function schemaBody(method: string, template: string): fc.Arbitrary<Body> | null {
  const schema =
    OPENAPI.paths?.[template]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']
      ?.schema;
  return schema ? fromSchema(schema).map<Body>((value) => ({ kind: 'json', value })) : null;
}

/**
 * A query drawn from the operation's query parameters. Values are cut to 200 characters: a longer URL
 * would pass Node's 16 kB header limit (a bodiless 431 before the app sees it).
 */
function schemaQuery(method: string, template: string): fc.Arbitrary<Record<string, unknown>> {
  const parameters: any[] = OPENAPI.paths?.[template]?.[method.toLowerCase()]?.parameters ?? [];
  const asQueryValue = (v: unknown) => (typeof v === 'string' ? v : toJson(v)).slice(0, 200);
  const entries = parameters
    .filter((p) => p.in === 'query')
    .map((p) => [p.name, fromSchema(p.schema ?? {}).map(asQueryValue)] as const);
  return entries.length
    ? fc.record(Object.fromEntries(entries), { requiredKeys: [] })
    : fc.constant({});
}

/**
 * A valid body per route, so mutations of it reach the services and the database with one odd value
 * (`$target`, `$campaign`... are replaced with the ids made in beforeAll).
 */
const TEMPLATES: Record<string, unknown> = {
  'POST /api/v1/campaigns': {
    name: 'fuzz',
    type: 'patient',
    max_attempts: 3,
    calling_window: { monday: [{ start: '09:00', end: '17:00' }], tz: 'US/Eastern' },
    steps: [{ friendly_id: 'intake', type: 'webhook', on_receive: 'merge' }],
    entry_step: 'intake',
    webhook_url: 'https://example.com/hook',
  },
  'PATCH /api/v1/campaigns/{campaign_id}': {
    name: 'renamed',
    max_concurrent_calls: 2,
    blacklist_ids: ['$blacklist'],
  },
  'POST /api/v1/campaigns/{campaign_id}/targets': {
    targets: [
      {
        phone_number: {
          value: '+1 555 010 0003',
          operating_hours: { tuesday: [{ start: '08:00', end: '12:00' }] },
        },
        external_id: 'F1',
        input_data: { a: 1 },
        patient: { first_name: 'A', external_id: 'P1', extra_data: {} },
      },
    ],
    launch: true,
    allow_duplicates: true,
  },
  'DELETE /api/v1/campaigns/{campaign_id}/targets': { target_ids: ['$target', 'x'] },
  'POST /api/v1/campaigns/{campaign_id}/calls': { count: 1, prioritize_oldest: true },
  'POST /api/v1/campaigns/{campaign_id}/targets/step/{friendly_id}': {
    updates: [
      { target_id: '$target', input_data: { a: 1 } },
      { external_id: 'E1', input_data: { b: 2 } },
    ],
  },
  'POST /api/v1/campaigns/{campaign_id}/targets/{target_id}/step/{friendly_id}': {
    a: 1,
    b: { c: [1] },
  },
  'POST /api/v1/campaigns/{campaign_id}/ehr-event/{friendly_id}': {
    event_type: 'appointment_created',
    event_data: { at: '2026-01-01' },
    target_id: '$target',
  },
  'POST /api/v1/campaigns/{campaign_id}/webhooks/rerun-failed': {
    from_date: '2026-01-01',
    to_date: '2026-12-31T00:00:00Z',
  },
  'PATCH /api/v1/targets/{target_id}': { input_data: { a: 2 }, only_if_not_started: false },
  'POST /api/v1/blacklists': { name: 'b', description: 'd' },
  'POST /api/v1/blacklists/{blacklist_id}/phone-numbers': {
    phone_numbers: [
      { phone_number: '+15550100001', reason: 'r', level: 'l', name: 'n', comment: 'c' },
    ],
  },
  'DELETE /api/v1/blacklists/{blacklist_id}/phone-numbers': { phone_numbers: ['+15550100001'] },
  'POST /api/v1/compliance/do-not-call': {
    phone_numbers: [{ phone_number: '+15550100001', reason: 'letter' }],
  },
  'DELETE /api/v1/compliance/do-not-call': { phone_numbers: ['+15550100001'], reason: 'consent' },
};

type Mutation = { at: number; op: 'replace' | 'delete' | 'keep'; value: unknown };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(),
  op: fc.constantFrom<Mutation['op']>('replace', 'replace', 'delete', 'keep'),
  value: fc.oneof(json, weirdStrings, longStrings, numbers),
});

/** Applies the mutation to the `at`-th node (depth first) of a copy of `template`. */
function mutate(template: unknown, m: Mutation, ids: Record<string, string>): unknown {
  const copy = JSON.parse(
    JSON.stringify(template).replace(/"\$(\w+)"/g, (_, k) => JSON.stringify(ids[k] ?? k)),
  );
  const nodes: { parent: any; key: string | number }[] = [];
  const walk = (value: any) => {
    if (value && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        nodes.push({ parent: value, key: Array.isArray(value) ? Number(key) : key });
        walk(value[key]);
      }
    }
  };
  walk(copy);
  if (m.op === 'keep' || nodes.length === 0) return copy;
  const { parent, key } = nodes[m.at % nodes.length];
  if (m.op === 'delete' && Array.isArray(parent)) parent.splice(key as number, 1);
  else if (m.op === 'delete') delete parent[key];
  else parent[key] = m.value;
  return copy;
}

const queryValue = fc.oneof(
  anyString,
  fc.integer().map(String),
  fc.array(anyString, { minLength: 2, maxLength: 3 }),
);
const query = fc.dictionary(
  fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string({ maxLength: 6 })),
  queryValue,
  { maxKeys: 4 },
);

/** A lone surrogate has no UTF-8 form: it goes out as the invalid bytes a careless client would send. */
function encodeSegment(raw: string): string {
  try {
    return encodeURIComponent(raw);
  } catch {
    return [...raw]
      .map((c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c)))
      .join('');
  }
}

function expectErrorShape(status: number, responseBody: any, where: string): void {
  if (status === 422) {
    expect({ where, keys: Object.keys(responseBody ?? {}) }).toEqual({ where, keys: ['detail'] });
    expect(Array.isArray(responseBody.detail) && responseBody.detail.length > 0).toBe(true);
    for (const item of responseBody.detail) {
      const keys = Object.keys(item).filter(
        (k) => !['type', 'loc', 'msg', 'input', 'ctx'].includes(k),
      );
      expect({ where, item, unknownKeys: keys }).toEqual({ where, item, unknownKeys: [] });
      expect({
        where,
        item,
        ok: typeof item.type === 'string' && typeof item.msg === 'string',
      }).toEqual({ where, item, ok: true });
      const locOk =
        Array.isArray(item.loc) &&
        ['body', 'query', 'path'].includes(item.loc[0]) &&
        item.loc.every((part: unknown) => typeof part === 'string' || Number.isInteger(part));
      expect({ where, item, locOk }).toEqual({ where, item, locOk: true });
      if ('ctx' in item)
        expect({ where, ctx: typeof item.ctx === 'object' && item.ctx !== null }).toEqual({
          where,
          ctx: true,
        });
    }
  } else if (status >= 400) {
    expect({ where, body: responseBody }).toEqual({ where, body: { detail: expect.any(String) } });
  }
}

describe('fuzz: no 5xx for any input, FastAPI-shaped errors', () => {
  let t: TestApp;
  let apiKey: string;
  const known: Record<string, string[]> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    // No workers: the property is about what the HTTP layer answers.
    t = await createTestApp({
      env: { ROLE: 'api', SECRETS_KEY: randomBytes(32).toString('base64') },
    });
    ({ apiKey } = await t.createOrganization());
    const campaign = await t.createCampaign(apiKey, {
      steps: [
        { friendly_id: 'intake', type: 'webhook', on_receive: 'merge' },
        { friendly_id: 'ehr', type: 'ehr_event', on_receive: 'merge_and_schedule' },
      ],
    });
    const added = await t
      .http()
      .post(`/api/v1/campaigns/${campaign.id}/targets`)
      .set('X-API-Key', apiKey)
      .send({
        targets: [
          { phone_number: '+15550100001', external_id: 'E1' },
          { phone_number: '+15550100002' },
        ],
      });
    const blacklist = await t
      .http()
      .post('/api/v1/blacklists')
      .set('X-API-Key', apiKey)
      .send({ name: 'fuzz' });
    known.campaign_id = [campaign.id];
    known.target_id = added.body.target_ids ?? [];
    known.blacklist_id = blacklist.body?.id ? [blacklist.body.id] : [];
    known.friendly_id = ['intake', 'ehr'];
    ids.campaign = campaign.id;
    ids.target = known.target_id[0];
    ids.blacklist = known.blacklist_id[0];
  });
  afterAll(() => t?.close());

  function served(): [string, string][] {
    const instance = t.app.getHttpAdapter().getInstance();
    const stack: any[] = instance.router?.stack ?? instance._router?.stack ?? [];
    const found: [string, string][] = [];
    for (const layer of stack) {
      const path: string | undefined = layer.route?.path;
      if (!path?.startsWith('/api/')) continue;
      for (const method of Object.keys(layer.route.methods ?? {})) {
        if (method !== '_all')
          found.push([method.toUpperCase(), path.replace(/:([A-Za-z_]+)/g, '{$1}')]);
      }
    }
    return found;
  }

  const pathValue = (name: string) =>
    fc.oneof(
      { arbitrary: fc.constantFrom(...(known[name]?.length ? known[name] : ['none'])), weight: 6 },
      { arbitrary: fc.uuid().map((u) => u as string), weight: 1 },
      { arbitrary: fc.integer({ min: -5, max: 2 ** 31 }).map(String), weight: 1 },
      { arbitrary: anyString.filter((s) => s.length > 0 && s.length < 200), weight: 2 },
    );

  async function send(method: string, url: string, q: Record<string, unknown>, b: Body) {
    let req = (t.http() as any)[method.toLowerCase()](url).set('X-API-Key', apiKey).query(q);
    if (b.kind === 'json') {
      const text = toJson(b.value).replace(/"\$(campaign|target|blacklist)"/g, (_, k) =>
        JSON.stringify(ids[k] ?? k),
      );
      req = req.set('Content-Type', 'application/json').send(text);
    }
    if (b.kind === 'raw') req = req.set('Content-Type', b.contentType).send(b.text);
    return req;
  }

  const stats: Record<string, Record<number, number>> = {};
  afterAll(() => {
    // FUZZ_STATS=1 shows which statuses each route answered, to see how deep the inputs get.
    if (process.env.FUZZ_STATS) console.log(JSON.stringify(stats, null, 1));
  });

  async function fuzzRoute(method: string, template: string): Promise<void> {
    const names = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const params = fc.tuple(...names.map(pathValue));
    const valid = TEMPLATES[`${method} ${template}`];
    const fromDocument = schemaBody(method, template);
    const bodies: fc.Arbitrary<Body> = fc.oneof(
      body,
      ...(valid
        ? [mutation.map<Body>((m) => ({ kind: 'json', value: mutate(valid, m, ids) }))]
        : []),
      ...(fromDocument ? [fromDocument, fromDocument] : []),
    );
    const queries = fc.oneof(query, schemaQuery(method, template), schemaQuery(method, template));
    await fc.assert(
      fc.asyncProperty(params, queries, bodies, async (values, q, b) => {
        let url = template;
        names.forEach((name, i) => {
          const raw = values[i] as string;
          // '%zz' goes out unencoded: a malformed escape must not be a 5xx either.
          url = url.replace(`{${name}}`, raw === '%zz' ? raw : encodeSegment(raw));
        });
        const res = await send(method, url, q, b);
        const counts = (stats[`${method} ${template}`] ??= {});
        counts[res.status] = (counts[res.status] ?? 0) + 1;
        const sent =
          b.kind === 'json'
            ? toJson(b.value).slice(0, 300)
            : b.kind === 'raw'
              ? JSON.stringify(b.text)
              : '';
        expectNo5xx(res, `${method} ${url} ${JSON.stringify(q)} ${sent}`);
      }),
      budget(),
    );
  }

  /** The answer is never a 5xx, and its error body is FastAPI's. */
  function expectNo5xx(res: { status: number; body: any }, where: string): void {
    expect({ where, status: res.status, body: res.status >= 500 ? res.body : null }).toEqual({
      where,
      status: expect.any(Number),
      body: null,
    });
    expectErrorShape(res.status, res.body, where);
  }

  it.each(ROUTES)('%s %s', (method, template) => fuzzRoute(method, template));

  it('every other route the app serves', async () => {
    const listed = new Set(ROUTES.map(([m, p]) => `${m} ${p}`));
    const others = served().filter(([m, p]) => !listed.has(`${m} ${p}`));
    for (const [method, template] of others) await fuzzRoute(method, template);
    expect(served().length).toBeGreaterThan(0);
  });

  it('the CSV import: malformed files, encodings and queries', async () => {
    const headers = [
      'phone_number',
      'external_id',
      'patient.first_name',
      'input_data.x',
      'id',
      'x',
    ];
    const field = fc.oneof(
      weirdStrings,
      fc.constantFrom('"', '""', '"a"b', 'a"b', '"a\nb"', ',', '\r', ' "x" ', '+15550100001'),
      fc.string({ unit: 'binary', maxLength: 12 }),
    );
    const csvText = fc
      .tuple(
        fc.shuffledSubarray(headers, { minLength: 0 }),
        fc.array(fc.array(field, { maxLength: 7 }), { maxLength: 6 }),
        fc.constantFrom('\n', '\r\n', '\r'),
      )
      .map(([head, rows, eol]) => [head, ...rows].map((r) => r.join(',')).join(eol));
    const file = fc.oneof(
      csvText.map((text) => Buffer.from(text, 'utf8')),
      // The same text in other encodings, with or without a byte order mark, and raw bytes.
      csvText.map((text) => Buffer.from(text, 'latin1')),
      csvText.map((text) =>
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
      ),
      csvText.map((text) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])),
      fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
    );
    const contentType = fc.constantFrom(
      'text/csv',
      'application/csv',
      'text/csv; charset=utf-8',
      'text/csv; charset=windows-1252',
      'text/csv; charset=utf-16',
      'text/csv; charset=klingon',
      'text/csv; charset=',
      'text/plain',
    );
    const importQuery = fc.record(
      {
        dry_run: fc.constantFrom('true', 'false', 'maybe'),
        allow_duplicates: fc.constantFrom('true', 'false', '1'),
        launch: fc.constantFrom('false', 'true', ''),
        columns: fc.oneof(
          fc.constantFrom('x:phone_number', 'Phone:phone_number,MRN:external_id', ':', 'a:b:c'),
          anyString,
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(file, contentType, importQuery, async (bytes, type, q) => {
        const res = await t
          .http()
          .post(`/api/v1/campaigns/${ids.campaign}/targets/import`)
          .set('X-API-Key', apiKey)
          .set('Content-Type', type)
          .query(q)
          .send(bytes);
        expectNo5xx(res, `import ${type} ${JSON.stringify(q)} ${bytes.toString('base64')}`);
      }),
      budget(),
    );
  });

  describe('provider events, signed with each connection’s own secret', () => {
    const secrets = {
      http: `whsec_${randomBytes(24).toString('base64')}`,
      twilio: { account_sid: `AC${'f0'.repeat(16)}`, auth_token: 'fuzz-twilio-auth-token' },
      vapi: { api_key: 'fuzz-vapi-key', server_secret: 'fuzz-vapi-server-secret' },
      retell: { api_key: 'key_fuzz_retell_api' },
    };
    const connections: Record<string, string> = {};
    /** Call logs in flight on each connection: events naming them reach the completion path. */
    const callLogs: Record<string, number[]> = {};

    beforeAll(async () => {
      const bodies = {
        http: {
          credentials: { secret: secrets.http },
          settings: { api_base_url: 'https://93.184.216.34' },
        },
        twilio: {
          credentials: secrets.twilio,
          settings: { twiml_url: 'https://example.com/t.xml' },
        },
        vapi: { credentials: secrets.vapi, settings: { assistant_id: 'a', phone_number_id: 'p' } },
        retell: { credentials: secrets.retell, settings: { agent_id: 'agent_1' } },
      };
      for (const [type, body] of Object.entries(bodies)) {
        const res = await t
          .http()
          .post('/api/v1/provider-connections')
          .set('X-API-Key', apiKey)
          .send({ type, name: `fuzz ${type}`, ...body });
        if (res.status !== 201) throw new Error(`${type} connection: ${res.status} ${res.text}`);
        connections[type] = res.body.id;
        const campaign = await t.createCampaign(apiKey, { provider_connection_id: res.body.id });
        const targets = await t.addTargets(apiKey, campaign.id, {
          targets: Array.from({ length: 8 }, (_, i) => ({ phone_number: `+1555020${1000 + i}` })),
        });
        await t.sql(`UPDATE targets SET status = 'In Progress', attempts = 1 WHERE id = ANY($1)`, [
          targets,
        ]);
        const rows = await t.sql<{ id: string }>(
          `INSERT INTO call_logs (organization_id, campaign_id, target_id, attempt, to_number,
                                  from_number, provider, started_at, deadline_at)
           SELECT organization_id, campaign_id, id, 1, phone_number, '+15550009999', $2, now(),
                  now() + interval '1 hour'
           FROM targets WHERE id = ANY($1) RETURNING id`,
          [targets, res.body.id],
        );
        callLogs[type] = rows.map((r) => Number(r.id));
      }
    });

    const callLogId = (type: string) =>
      fc.oneof(
        { arbitrary: fc.constantFrom(...(callLogs[type] ?? [0])), weight: 6 },
        { arbitrary: numbers, weight: 1 },
        { arbitrary: anyString, weight: 1 },
      );
    const time = fc.oneof(
      fc.constantFrom(1e20, -1e20, -8.6e15, 0, Date.now(), Number.MAX_SAFE_INTEGER),
      numbers,
      anyString,
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    );
    const url = fc.oneof(
      fc.constantFrom(
        'javascript:alert(1)',
        'https://r.example/a.wav',
        'data:text/html,x',
        'http:',
      ),
      anyString,
    );
    const loose = <T>(arbitrary: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary, weight: 5 }, { arbitrary: json, weight: 1 });

    function body(type: string): fc.Arbitrary<Record<string, unknown>> {
      const ids = fc.oneof(fc.constantFrom('call-1', 'call-2'), anyString);
      switch (type) {
        case 'http':
          return fc.record(
            {
              type: loose(fc.constantFrom('call.started', 'call.ended', 'call.requested')),
              call_id: loose(ids),
              call_log_id: loose(callLogId(type)),
              timestamp: time,
              outcome: loose(fc.constantFrom('GOOD', 'VOICEMAIL', 'NO_RESPONSE', 'HUMAN_ONLY')),
              duration_seconds: loose(numbers),
              transcript: json,
              recording_urls: fc.array(loose(url), { maxLength: 3 }),
              output_data: json,
              agent_data: json,
              subcategory: json,
              summary: json,
            },
            { requiredKeys: [] },
          );
        case 'vapi':
          return fc.record({
            message: fc.record(
              {
                type: loose(fc.constantFrom('status-update', 'end-of-call-report')),
                status: loose(fc.constantFrom('in-progress', 'ended')),
                endedReason: loose(fc.constantFrom('customer-ended-call', 'voicemail')),
                timestamp: time,
                startedAt: time,
                endedAt: time,
                artifact: loose(
                  fc.record(
                    {
                      recordingUrl: url,
                      stereoRecordingUrl: url,
                      messages: json,
                      transcript: json,
                    },
                    { requiredKeys: [] },
                  ),
                ),
                analysis: json,
                call: loose(
                  fc.record({
                    id: loose(ids),
                    status: loose(fc.constantFrom('ended', 'in-progress')),
                    assistantOverrides: loose(
                      fc.record({ metadata: fc.record({ call_log_id: callLogId(type) }) }),
                    ),
                  }),
                ),
              },
              { requiredKeys: [] },
            ),
          });
        case 'retell':
          return fc.record({
            event: loose(fc.constantFrom('call_started', 'call_ended', 'call_analyzed')),
            call: loose(
              fc.record(
                {
                  call_id: loose(ids),
                  call_status: loose(fc.constantFrom('ended', 'ongoing', 'error')),
                  metadata: loose(fc.record({ call_log_id: callLogId(type) })),
                  start_timestamp: time,
                  end_timestamp: time,
                  duration_ms: loose(numbers),
                  disconnection_reason: loose(fc.constantFrom('user_hangup', 'dial_busy')),
                  recording_url: url,
                  transcript_object: json,
                  call_analysis: json,
                },
                { requiredKeys: [] },
              ),
            ),
          });
        default:
          return fc.record(
            {
              CallSid: fc.oneof(fc.constantFrom('CA1', 'CA2'), anyString),
              CallStatus: fc.oneof(
                fc.constantFrom('in-progress', 'completed', 'busy', 'no-answer', 'failed'),
                anyString,
              ),
              AnsweredBy: anyString,
              CallDuration: fc.oneof(numbers.map(String), anyString),
              RecordingUrl: url.map(String),
              Timestamp: time.map(String),
            },
            { requiredKeys: [] },
          ) as fc.Arbitrary<Record<string, unknown>>;
      }
    }

    /** The request as the provider signs it; now and then a forged or garbled one. */
    async function send(type: string, payload: Record<string, unknown>, forge: boolean) {
      const path = `/api/v1/telephony/${connections[type]}/events`;
      const req = t
        .http()
        .post(type === 'twilio' ? `${path}?call_log_id=${callLogs.twilio[0]}` : path);
      if (type === 'twilio') {
        const params = Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, String(v)]));
        const signed = `http://localhost:3000${path}?call_log_id=${callLogs.twilio[0]}`;
        const signature = forge
          ? 'forged'
          : twilio.getExpectedTwilioSignature(secrets.twilio.auth_token, signed, params);
        return req
          .set('Content-Type', 'application/x-www-form-urlencoded')
          .set('X-Twilio-Signature', signature)
          .send(new URLSearchParams(params).toString());
      }
      const text = toJson(payload);
      req.set('Content-Type', 'application/json');
      if (type === 'vapi') {
        return req.set('X-Vapi-Secret', forge ? 'nope' : secrets.vapi.server_secret).send(text);
      }
      if (type === 'retell') {
        const signature = forge ? 'v=1,d=00' : await Retell.sign(text, secrets.retell.api_key);
        return req.set('x-retell-signature', signature).send(text);
      }
      const id = `msg_${randomBytes(6).toString('hex')}`;
      return req
        .set('webhook-id', id)
        .set('webhook-timestamp', String(Math.floor(Date.now() / 1000)))
        .set(
          'webhook-signature',
          forge ? 'v1,forged' : new Webhook(secrets.http).sign(id, new Date(), text),
        )
        .send(text);
    }

    it.each(['http', 'twilio', 'vapi', 'retell'])('%s', async (type) => {
      const forged = fc.oneof(
        { arbitrary: fc.constant(false), weight: 9 },
        { arbitrary: fc.constant(true), weight: 1 },
      );
      await fc.assert(
        fc.asyncProperty(body(type), forged, async (payload, forge) => {
          const res = await send(type, payload, forge);
          expectNo5xx(
            res,
            `${type} events ${forge ? 'forged ' : ''}${toJson(payload).slice(0, 500)}`,
          );
        }),
        budget(),
      );
    });
  });

  it('the process is alive and answers after all of it', async () => {
    await t.http().get('/api/v1/health').expect(200, { status: 'ok' });
  });
});
