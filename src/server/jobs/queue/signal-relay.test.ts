import { describe, expect, it } from 'vitest';
import { finishedJobRow } from '../../../../test/support/tool-fixtures';
import { coalesced, readFinishedNotices } from './signal-relay';

/** Coalesced notices whose sending is held until `release()`: what was sent, in order. */
function heldNotices(separator: string) {
  const sent: string[] = [];
  let releaseSending: () => void = () => {};
  const announce = coalesced(
    (payload) => {
      sent.push(payload);
      return new Promise<void>((resolve) => {
        releaseSending = resolve;
      });
    },
    (items) => items.join(separator),
  );
  return { sent, announce, release: () => releaseSending() };
}

describe('coalesced notices', () => {
  it('sends the first at once and packs what comes while it is in flight into the next', async () => {
    const { sent, announce, release } = heldNotices('|');
    announce('a');
    expect(sent).toEqual(['a']);
    announce('b');
    announce('c');
    announce('b');
    expect(sent).toEqual(['a']);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toEqual(['a', 'b|c']);
    release();
  });

  it('keeps each notice under the size a NOTIFY takes', async () => {
    const { sent, announce, release } = heldNotices(',');
    announce('first');
    const ids = Array.from({ length: 400 }, (_, i) => `${i}`.padStart(36, '0'));
    for (const id of ids) announce(id);
    while (sent.flatMap((payload) => payload.split(',')).length < 401) {
      release();
      await new Promise((resolve) => setImmediate(resolve));
    }
    // 400 ids of 36 characters do not fit in one notice: they go in two or more, none too large.
    expect(sent.length).toBeGreaterThan(2);
    for (const payload of sent) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    expect(sent.slice(1).flatMap((payload) => payload.split(','))).toEqual(ids);
  });
});

describe('reading a finished-jobs notice', () => {
  it('gives back each id and sender, and nothing a notice should not carry', () => {
    // What an earlier build sent: the whole row (prompt, owner, Idempotency-Key) and the balance.
    const job = finishedJobRow('00000000-0000-4000-8000-000000000001');
    const payload = `[${JSON.stringify({ id: job.id, from: 'w1', finished: { job, balance: 15 } })},${JSON.stringify({ id: 'x' })}]`;
    expect(readFinishedNotices(payload)).toEqual([{ id: job.id, from: 'w1' }, { id: 'x' }]);
  });

  it('reads nothing from a malformed notice', () => {
    expect(readFinishedNotices('not json')).toEqual([]);
    expect(readFinishedNotices('{"id":"x"}')).toEqual([]);
    expect(readFinishedNotices('[{"no":"id"}]')).toEqual([]);
  });
});
