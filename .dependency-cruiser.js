/** Domain and application code stay free of infrastructure: no ORM, driver or HTTP framework. */
module.exports = {
  forbidden: [
    {
      name: 'domain-application-without-infrastructure',
      comment: 'domain/ and application/ speak through ports; adapters live in infrastructure/ and api/.',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/(domain|application)/' },
      to: { path: '^(node_modules/(typeorm|@nestjs/typeorm|pg|pg-boss|express|@electric-sql)/|src/database/|src/jobs/|src/modules/[^/]+/(infrastructure|api)/)' },
    },
    {
      name: 'domain-is-plain-typescript',
      severity: 'error',
      from: { path: '^src/modules/[^/]+/domain/' },
      to: { path: '^node_modules/@nestjs/' },
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
