import { describe, expect, it } from 'vitest';
import { createGateCache } from './model-gate';

describe('createGateCache', () => {
  it('keeps one gate, loaded once, per name', async () => {
    const cache = createGateCache<string>();
    const loads: string[] = [];
    const load = (name: string) => async () => {
      loads.push(name);
      return `model ${name}`;
    };
    const x2 = cache.get('x2', load('x2'));
    expect(cache.get('x2', load('x2 again'))).toBe(x2);
    const x4 = cache.get('x4', load('x4'));
    expect(x4).not.toBe(x2);
    expect(await x2.run(async (model) => model)).toBe('model x2');
    expect(await cache.get('x2', load('x2 again')).run(async (model) => model)).toBe('model x2');
    expect(await x4.run(async (model) => model)).toBe('model x4');
    expect(loads).toEqual(['x2', 'x4']);
  });

  it('loads a forgotten model afresh, and a stale forget leaves the newer gate alone', async () => {
    const cache = createGateCache<number>();
    const forgets: Array<() => void> = [];
    let loads = 0;
    const load = async (forget: () => void) => {
      forgets.push(forget);
      return ++loads;
    };
    expect(await cache.get('medium', load).run(async (model) => model)).toBe(1);
    forgets[0]?.();
    const fresh = cache.get('medium', load);
    expect(await fresh.run(async (model) => model)).toBe(2);
    forgets[0]?.();
    expect(cache.get('medium', load)).toBe(fresh);
  });
});
