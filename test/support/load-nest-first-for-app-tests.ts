// load-nest-first.ts for the unit project: only a test file that builds the app has @nestjs/throttler
// in its module graph, and that is a file importing @nestjs/testing or @nestjs/core, a Nest module
// (`*.module.js`) or a package entry (`index.js`). Loading Nest first for every unit file instead cost
// about a fifth of the project's time. A unit file that fails with ERR_REQUIRE_CYCLE_MODULE builds the
// app by some other import: add it to the pattern.
import { readFileSync } from 'node:fs';

const BUILDS_THE_APP = /from '(@nestjs\/testing|@nestjs\/core|[^']*\.module\.js|[^']*\/index\.js)'/;

const { testPath } = expect.getState();
if (testPath && BUILDS_THE_APP.test(readFileSync(testPath, 'utf8'))) {
  await import('@nestjs/common');
  await import('@nestjs/core');
}
