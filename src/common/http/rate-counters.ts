import type { Provider } from '@nestjs/common';
import type { ThrottlerStorageService } from '@nestjs/throttler';

/** In-memory counters with expiry and blocking: @nestjs/throttler's storage. */
export type RateCounters = ThrottlerStorageService;
export const RATE_COUNTERS = Symbol('RateCounters');

/**
 * @nestjs/throttler is loaded as the module is built, not imported: it is CommonJS and require()s
 * @nestjs/common and @nestjs/core, which are ES modules. Node runs it after them; Jest (in both a
 * CommonJS and an ES module project) runs the CommonJS packages of an ES module graph before the
 * graph's ES modules, so a static import made its require() of @nestjs/core "a cycle"
 * (ERR_REQUIRE_CYCLE_MODULE) in a team's Jest tests. nestjs-pino is loaded alike
 * (campaign-calling.module.ts, app.setup.ts).
 */
export const RATE_COUNTERS_PROVIDER: Provider = {
  provide: RATE_COUNTERS,
  useFactory: async (): Promise<RateCounters> =>
    new (await import('@nestjs/throttler')).ThrottlerStorageService(),
};
