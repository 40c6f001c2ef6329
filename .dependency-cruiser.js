/**
 * The modules in layers, lowest first (docs/architecture.md, "Module layers"): a module imports only
 * modules of a lower layer, so no two modules import each other and no module cycle can form. A new
 * module takes the lowest layer above everything it imports.
 */
const MODULE_LAYERS = [
  ['telephony', 'audit', 'retention'],
  ['organization', 'blacklist', 'compliance', 'call-log', 'health', 'console'],
  ['provider-connection'],
  ['campaign'],
  ['webhook'],
  ['target'],
  ['messaging', 'step'],
  ['calling'],
  ['demo'],
];

const moduleLayerRules = MODULE_LAYERS.flatMap((layer, i) =>
  layer.map((name) => ({
    name: 'module-imports-only-lower-layers',
    comment: `${name} may import only modules of a layer below its own (MODULE_LAYERS).`,
    severity: 'error',
    from: { path: `^src/modules/${name}/` },
    to: {
      path: `^src/modules/(${MODULE_LAYERS.slice(i).flat().join('|')})/`,
      pathNot: `^src/modules/${name}/`,
    },
  })),
);

/** Domain and application code stay free of infrastructure: no ORM, driver or HTTP framework. */
export default {
  forbidden: [
    ...moduleLayerRules,
    {
      name: 'domain-application-without-infrastructure',
      comment:
        'domain/ and application/ speak through ports; adapters live in infrastructure/ and api/.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/(domain|application)/' },
      to: {
        path: '^(node_modules/(typeorm|@nestjs/typeorm|pg|pg-boss|express|@electric-sql)/|src/database/|src/jobs/|src/modules/[^/]+/(infrastructure|api)/)',
      },
    },
    {
      name: 'domain-is-plain-typescript',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/domain/' },
      to: { path: '^node_modules/@nestjs/' },
    },
    {
      name: 'no-cross-module-infrastructure',
      comment:
        "A module's adapters use another module only through its module, exported service or port, never its adapters.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/infrastructure/' },
      to: { path: '^src/modules/([^/]+)/infrastructure/', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'domain-application-without-http',
      comment:
        'Services throw domain errors with domain field paths; the HTTP layer (api/, common/http) alone knows requests, and signing and HTTP clients are adapters.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/(domain|application)/' },
      to: {
        path: '^(src/common/http/|node_modules/(standardwebhooks|undici|axios|node-fetch|got|@nestjs/axios|@nestjs/platform-express|supertest)/)',
      },
    },
    {
      name: 'domain-application-without-node-http',
      comment:
        'node:http, https and http2 belong to adapters (infrastructure/), not to domain or application code.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/(domain|application)/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(http|https|http2|net|tls|dns)$' },
    },
    {
      name: 'module-reached-through-its-public-surface',
      comment:
        'Another module is reached only through its module file, its exported application service, a port it defines (application/ports/), its domain types or its wire shape (presenter, response DTOs) (docs/architecture.md).',
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: [
          '^src/modules/$1/',
          '^src/modules/[^/]+/[^/]+\\.module\\.ts$',
          '^src/modules/[^/]+/application/[^/]+\\.service\\.ts$',
          '^src/modules/[^/]+/application/ports/',
          '^src/modules/[^/]+/domain/',
          // A module's wire shape is public too: the step routes answer with a target as the target
          // routes show it.
          '^src/modules/[^/]+/api/[^/]+\\.presenter\\.ts$',
          '^src/modules/[^/]+/api/dto/[^/]+-response\\.dto\\.ts$',
        ],
      },
    },
    {
      name: 'telephony-kernel-is-a-leaf',
      comment:
        'The telephony kernel (outcomes, calling window, calling rules, dial plans, the provider port) is what several modules share about a call: it imports no other module, so every module may import it (docs/architecture.md).',
      severity: 'error',
      from: { path: '^src/modules/telephony/' },
      to: { path: '^src/modules/', pathNot: '^src/modules/telephony/' },
    },
    {
      name: 'common-knows-no-module',
      comment:
        'common/ holds what every module shares (errors, paging, the unit of work, the job queue, the clock); a port of one module lives in that module.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true, pathNot: '\\.orm-entity\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
