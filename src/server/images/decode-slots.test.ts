import { describe, expect, it } from 'vitest';
import { createDecodeSlots } from './decode-slots';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('decode slots', () => {
  it('runs at most the limit at once, and one owner’s work one at a time', async () => {
    const slots = createDecodeSlots(2);
    let running = 0;
    let most = 0;
    const byOwner = new Map<string, number>();
    let ownerOverlap = false;
    const work = (owner: string) =>
      slots.run(owner, async () => {
        running++;
        byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
        if ((byOwner.get(owner) ?? 0) > 1) ownerOverlap = true;
        most = Math.max(most, running);
        await tick();
        running--;
        byOwner.set(owner, (byOwner.get(owner) ?? 1) - 1);
        return owner;
      });
    const results = await Promise.all(['a', 'a', 'a', 'b', 'c', 'd', 'b'].map(work));
    expect(results).toEqual(['a', 'a', 'a', 'b', 'c', 'd', 'b']);
    expect(most).toBe(2);
    expect(ownerOverlap).toBe(false);
  });

  it('frees the slot and the owner when work fails', async () => {
    const slots = createDecodeSlots(1);
    await expect(slots.run('a', async () => Promise.reject(new Error('bad file')))).rejects.toThrow('bad file');
    await expect(slots.run('a', async () => 'next')).resolves.toBe('next');
  });
});
