// A batch's images kept on the way to /tokens (lib/batch-draft.ts), against an in-memory store.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryDraftStore, withMemoryDraftStore } from '../test-support/draft-store';
import {
  BATCH_DRAFT_MAX_AGE_MS,
  indexedDbStore,
  saveBatchDraft,
  setBatchDraftStore,
  takeBatchDraft,
} from './batch-draft';

const file = (name: string, text = name) => new File([text], name, { type: 'image/png' });

describe('batch drafts', () => {
  const store = withMemoryDraftStore();
  afterEach(() => vi.useRealTimers());

  it('give the files back once, in order, with the batch’s names', async () => {
    const a = file('a.png');
    const pasted = file('', 'pasted bytes');
    expect(
      await saveBatchDraft('colorizer', [
        { file: a, name: 'a.png' },
        { file: pasted, name: 'Pasted image' },
      ]),
    ).toBe(true);
    const taken = await takeBatchDraft('colorizer');
    expect(taken?.map(({ name }) => name)).toEqual(['a.png', 'Pasted image']);
    expect(taken?.[0]?.file).toBe(a);
    expect(await taken?.[1]?.file.text()).toBe('pasted bytes');
    expect(await takeBatchDraft('colorizer')).toBeNull();
  });

  it('keep only the latest batch, and leave another tool’s for that tool', async () => {
    await saveBatchDraft('colorizer', [{ file: file('old.png'), name: 'old.png' }]);
    await saveBatchDraft('background-remover', [{ file: file('new.png'), name: 'new.png' }]);
    expect(await takeBatchDraft('colorizer')).toBeNull();
    expect((await takeBatchDraft('background-remover'))?.map(({ name }) => name)).toEqual(['new.png']);
  });

  it('forget a draft older than a day', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    await saveBatchDraft('colorizer', [{ file: file('a.png'), name: 'a.png' }]);
    vi.setSystemTime(Date.now() + BATCH_DRAFT_MAX_AGE_MS + 1);
    expect(await takeBatchDraft('fix-a-face')).toBeNull();
    expect(store.current.values.size).toBe(0);
  });

  it('keep nothing for an empty batch, and drop a record it cannot read', async () => {
    expect(await saveBatchDraft('colorizer', [])).toBe(false);
    store.current.values.set('batch', { toolId: 'colorizer', savedAt: Date.now(), files: [{ name: 'a.png' }] });
    expect(await takeBatchDraft('colorizer')).toBeNull();
    expect(store.current.values.size).toBe(0);
  });

  it('do nothing, quietly, without IndexedDB or when it fails', async () => {
    // happy-dom has no IndexedDB.
    expect(indexedDbStore()).toBeNull();
    setBatchDraftStore(undefined);
    expect(await saveBatchDraft('colorizer', [{ file: file('a.png'), name: 'a.png' }])).toBe(false);
    expect(await takeBatchDraft('colorizer')).toBeNull();

    const broken = memoryDraftStore();
    broken.put = () => Promise.reject(new Error('QuotaExceededError'));
    broken.get = () => Promise.reject(new Error('gone'));
    setBatchDraftStore(broken);
    expect(await saveBatchDraft('colorizer', [{ file: file('a.png'), name: 'a.png' }])).toBe(false);
    expect(await takeBatchDraft('colorizer')).toBeNull();
  });
});
