import { vi } from 'vitest';
import { ExpiringCache } from './expiring-cache.js';

describe('ExpiringCache', () => {
  const lookups = (values: Array<string | null>) => {
    let calls = 0;
    const lookup = vi.fn(async () => values[Math.min(calls++, values.length - 1)]);
    return lookup;
  };

  it('keeps a value until its deadline, then looks up again', async () => {
    const cache = new ExpiringCache<string, string>(10);
    const lookup = lookups(['a', 'b']);
    expect(await cache.get('k', 0, 1000, lookup)).toBe('a');
    expect(await cache.get('k', 999, 1000, lookup)).toBe('a');
    expect(await cache.get('k', 1000, 1000, lookup)).toBe('b');
    expect(lookup).toHaveBeenCalledTimes(2);
  });

  it('never keeps "not found", and drops an expired value the lookup no longer finds', async () => {
    const cache = new ExpiringCache<string, string>(10);
    const lookup = lookups([null, 'a', null, 'b']);
    expect(await cache.get('k', 0, 1000, lookup)).toBeNull();
    expect(await cache.get('k', 1, 1000, lookup)).toBe('a');
    expect(await cache.get('k', 2000, 1000, lookup)).toBeNull();
    expect(await cache.get('k', 2001, 1000, lookup)).toBe('b');
    expect(lookup).toHaveBeenCalledTimes(4);
  });

  it('forget and forgetAll drop values at once', async () => {
    const cache = new ExpiringCache<string, string>(10);
    await cache.get('k', 0, 1000, lookups(['a']));
    await cache.get('j', 0, 1000, lookups(['x']));
    cache.forget('k');
    expect(await cache.get('k', 1, 1000, lookups(['b']))).toBe('b');
    expect(await cache.get('j', 1, 1000, lookups(['y']))).toBe('x');
    cache.forgetAll();
    expect(await cache.get('k', 2, 1000, lookups(['c']))).toBe('c');
    expect(await cache.get('j', 2, 1000, lookups(['z']))).toBe('z');
  });

  it('a lookup under way when a value is forgotten is returned but not kept', async () => {
    const cache = new ExpiringCache<string, string>(10);
    let release!: (value: string) => void;
    const pending = cache.get('k', 0, 1000, () => new Promise<string>((r) => (release = r)));
    cache.forget('k');
    release('stale');
    expect(await pending).toBe('stale');
    expect(await cache.get('k', 1, 1000, lookups(['fresh']))).toBe('fresh');
  });

  it('starts over empty past its bound', async () => {
    const cache = new ExpiringCache<string, string>(2);
    await cache.get('a', 0, 1000, lookups(['1']));
    await cache.get('b', 0, 1000, lookups(['2']));
    await cache.get('c', 0, 1000, lookups(['3']));
    expect(await cache.get('a', 1, 1000, lookups(['1 again']))).toBe('1 again');
    expect(await cache.get('c', 1, 1000, lookups(['3 again']))).toBe('3');
  });
});
