import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ToolDefinition, type ToolId, toolById } from '../../../contract/tools';
import { callTool } from './tool-api';

/** The tool with its id's own type, so the body is checked as that tool's request. */
const toolOf = <Id extends ToolId>(id: Id) => toolById(id) as ToolDefinition & { id: Id };

describe('a tool call', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const keyOf = (init: RequestInit | undefined) => new Headers(init?.headers).get('Idempotency-Key');

  it('sends its Idempotency-Key again when the connection fails, so the retry cannot pay twice', async () => {
    vi.useFakeTimers();
    const fetch = vi
      .fn<typeof globalThis.fetch>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(
        new Response(JSON.stringify({ success: true, output: ['/api/files/x'] }), { status: 200 }),
      );
    vi.stubGlobal('fetch', fetch);
    const answer = callTool(toolOf('text-to-pic'), { prompt: 'a kite' }, undefined);
    await vi.runAllTimersAsync();
    expect((await answer).data).toEqual({ success: true, output: ['/api/files/x'] });
    expect(fetch).toHaveBeenCalledTimes(2);
    const [first, second] = fetch.mock.calls.map(([, init]) => keyOf(init));
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(second).toBe(first);
  });

  it('uses a new key for every call, and gives up after one retry', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn<typeof globalThis.fetch>().mockRejectedValue(new TypeError('Failed to fetch'));
    vi.stubGlobal('fetch', fetch);
    const failing = callTool(toolOf('colorizer'), { image: 'data:image/png;base64,AA==' }, undefined);
    const settled = failing.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await vi.runAllTimersAsync();
    expect(await settled).toBe('Failed to fetch');
    expect(fetch).toHaveBeenCalledTimes(2);

    fetch.mockResolvedValue(new Response('{}', { status: 200 }));
    await callTool(toolOf('colorizer'), { image: 'data:image/png;base64,AA==' }, undefined);
    const keys = fetch.mock.calls.map(([, init]) => keyOf(init));
    expect(keys[2]).not.toBe(keys[0]);
  });
});
