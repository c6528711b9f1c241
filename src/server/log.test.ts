import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, MAX_LOGGED_TEXT, withLogFields } from './log';

/** The JSON lines a logger writes, captured from stdout and stderr. */
function captureLines() {
  const lines: string[] = [];
  const grab = (chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(grab);
  vi.spyOn(process.stderr, 'write').mockImplementation(grab);
  return lines;
}

afterEach(() => vi.restoreAllMocks());

describe('the log and what users wrote', () => {
  const prompt = `a very long prompt ${'with many words '.repeat(200)}END-OF-PROMPT`;

  it('never holds a failed query’s parameters (a prompt, a name), in the message or the stack', () => {
    const lines = captureLines();
    const failed = new Error(`Failed query: insert into "jobs" ("input") values ($1)\nparams: {"prompt":"${prompt}"}`);
    createLogger('info').error('unhandled error', { error: new Error('wrapped', { cause: failed }) });
    const line = lines.join('');
    expect(line).not.toContain('END-OF-PROMPT');
    expect(line).not.toContain('with many words with many words');
    expect(line).toContain('Failed query: insert into');
    expect(line).toContain('params: (not logged)');
  });

  it('shortens any long text field to a few hundred characters', () => {
    const lines = captureLines();
    createLogger('info').warn('odd input', { prompt, error: new Error(prompt) });
    const entry = JSON.parse(lines.join('')) as { prompt: string; error: { message: string; stack: string } };
    expect(entry.prompt.length).toBeLessThan(MAX_LOGGED_TEXT + 60);
    expect(entry.error.message.length).toBeLessThan(MAX_LOGGED_TEXT + 60);
    expect(JSON.stringify(entry)).not.toContain('END-OF-PROMPT');
    // Our own frames stay, for the operator.
    expect(entry.error.stack).toContain('log.test.ts');
  });
});

describe('fields of a unit of work (a request’s id)', () => {
  it('are on every line logged within it, by any logger, across awaits, and on none outside it', async () => {
    const lines = captureLines();
    const logger = createLogger('info');
    await withLogFields({ requestId: 'req-1' }, async () => {
      logger.info('first');
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.child({ jobId: 'j' }).warn('after an await');
    });
    logger.info('outside');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((entry) => entry.requestId)).toEqual(['req-1', 'req-1', undefined]);
    expect(entries[1]?.jobId).toBe('j');
  });
});
