import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.ts';

describe('ReadCache', () => {
  it('serves a loaded value until it expires', async () => {
    let clock = 0;
    let loads = 0;
    const cache = new ReadCache(1000, 10, () => clock);
    const load = async () => ++loads;
    expect(await cache.get('feed', 'a', load)).toBe(1);
    clock = 999;
    expect(await cache.get('feed', 'a', load)).toBe(1);
    clock = 1000;
    expect(await cache.get('feed', 'a', load)).toBe(2);
  });

  it('shares one load between concurrent misses', async () => {
    let loads = 0;
    const cache = new ReadCache(1000);
    const load = () => new Promise<number>((r) => setTimeout(() => r(++loads), 10));
    const values = await Promise.all(Array.from({ length: 20 }, () => cache.get('feed', 'k', load)));
    expect(values).toEqual(Array(20).fill(1));
    expect(loads).toBe(1);
  });

  it('does not keep a failed load', async () => {
    const cache = new ReadCache(1000);
    await expect(cache.get('feed', 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('feed', 'k', async () => 'up')).toBe('up');
  });

  it('forgets a namespace on invalidate and keeps the others', async () => {
    const cache = new ReadCache(60_000);
    await cache.get('feed', 'k', async () => 'old feed');
    await cache.get('creators', 'k', async () => 'creators');
    cache.invalidate('feed');
    expect(await cache.get('feed', 'k', async () => 'new feed')).toBe('new feed');
    expect(await cache.get('creators', 'k', async () => 'reloaded')).toBe('creators');
  });

  it('holds at most maxEntries, dropping the oldest', async () => {
    const cache = new ReadCache(60_000, 3);
    for (const k of ['a', 'b', 'c', 'd']) await cache.get('feed', k, async () => k);
    expect(cache.size).toBe(3);
    expect(await cache.get('feed', 'a', async () => 'reloaded')).toBe('reloaded');
  });

  it('passes straight through when the lifetime is zero', async () => {
    let loads = 0;
    const cache = new ReadCache(0);
    await cache.get('feed', 'k', async () => ++loads);
    await cache.get('feed', 'k', async () => ++loads);
    expect(loads).toBe(2);
    expect(cache.size).toBe(0);
  });
});
