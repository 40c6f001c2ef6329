import { PurgePacing } from './retention-purge.js';

describe("the purge's pacing", () => {
  afterEach(() => vi.useRealTimers());

  it('waits t * (1 - d) / d after a batch that took t', async () => {
    vi.useFakeTimers();
    const pacing = new PurgePacing(0.25);
    let done = false;
    const pause = pacing.pause(100).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(299);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await pause;
    expect(done).toBe(true);
  });

  it('does not wait at a duty cycle of 1 (the tests run the purge at full speed)', async () => {
    vi.useFakeTimers();
    let done = false;
    const pause = new PurgePacing(1).pause(1_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    await pause;
    expect(done).toBe(true);
  });

  it('ends a pause when the process stops, and waits no more after', async () => {
    vi.useFakeTimers();
    const pacing = new PurgePacing(0.1);
    let done = false;
    const pause = pacing.pause(60_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(done).toBe(false);
    pacing.stop();
    await vi.advanceTimersByTimeAsync(0);
    await pause;
    expect(done).toBe(true);
    let later = false;
    const next = pacing.pause(60_000).then(() => (later = true));
    await vi.advanceTimersByTimeAsync(0);
    await next;
    expect(later).toBe(true);
  });
});
