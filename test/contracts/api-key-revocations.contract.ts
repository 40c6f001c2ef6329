import { ApiKeyRevocations } from '../../src/modules/organization/application/ports/api-key-revocations.js';
import { waitFor } from '../support/test-app.js';

export interface ApiKeyRevocationsHarness {
  revocations: ApiKeyRevocations;
  /** Revokes a key as another process would (the adapter: through the repository's statement). */
  revokeElsewhere(): Promise<void>;
  /** Whether revocations from elsewhere reach this process (false: embedded PGlite). */
  delivers: boolean;
  close(): Promise<void>;
}

/** Either a revocation elsewhere reaches the subscribers, or cached keys live at most a second. */
export function apiKeyRevocationsContract(
  name: string,
  setup: () => Promise<ApiKeyRevocationsHarness>,
): void {
  describe(`ApiKeyRevocations contract: ${name}`, () => {
    let h: ApiKeyRevocationsHarness;
    beforeAll(async () => {
      h = await setup();
    });
    afterAll(() => h.close());

    it('a revocation elsewhere reaches every subscriber, or keys are cached for a second at most', async () => {
      let heard = [0, 0];
      h.revocations.subscribe(() => (heard = [heard[0] + 1, heard[1]]));
      h.revocations.subscribe(() => (heard = [heard[0], heard[1] + 1]));
      // A subscriber that hears nothing keeps keys a second at most, and is promised nothing more.
      expect(h.delivers || h.revocations.cacheTtlMs() <= 1000).toBe(true);
      if (!h.delivers) return;
      // Notifications are trusted (long TTL) only once they are known to arrive.
      await waitFor(
        async () => h.revocations.cacheTtlMs(),
        (ttl) => ttl > 1000,
      );
      await h.revokeElsewhere();
      expect(
        await waitFor(
          async () => heard,
          ([a, b]) => a > 0 && b > 0,
        ),
      ).toEqual([expect.any(Number), expect.any(Number)]);
    });
  });
}
