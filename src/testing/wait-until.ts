/**
 * Polls `probe` until `done` holds, and returns that value; throws after `timeoutMs` with the last one.
 * For what the service does in the background (the dispatcher, the simulator): wait on the condition,
 * never on a fixed sleep.
 */
export async function waitUntil<T>(
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`waitUntil: timed out after ${timeoutMs} ms; last: ${JSON.stringify(value)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
