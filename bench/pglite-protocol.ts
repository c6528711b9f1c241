// What PGlite runs, seen where every statement passes: its synchronous protocol call
// (`execProtocolRawSync`, one per message or buffer of messages, its wasm on this thread). PGlite's
// own `query` and `exec` and the app's named statements (src/server/db/pglite-statements.ts) all end
// there, so the benches count and time statements here, by their text.
import { performance } from 'node:perf_hooks';

/** This thread's CPU time so far, in ms. */
export const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/**
 * Follows the protocol messages PGlite is given to name the statement each call works on: a Parse
 * ('P') or a simple Query ('Q') carries its text (a named Parse is remembered by its name), a Bind
 * ('B') of a named statement points back to it; an Execute ('E') or a Query is one run.
 */
function statementTracker() {
  const textOf = new Map<string, string>();
  let current = '(none)';
  const cString = (bytes: Uint8Array, from: number) => {
    const end = bytes.indexOf(0, from);
    return { text: Buffer.from(bytes.subarray(from, end < 0 ? bytes.length : end)).toString(), next: end + 1 };
  };
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  return (buffer: Uint8Array): { statement: string; runs: number } => {
    let runs = 0;
    for (let at = 0; at + 5 <= buffer.length; ) {
      const type = buffer[at];
      const length = Buffer.from(buffer.buffer, buffer.byteOffset + at + 1, 4).readInt32BE(0);
      const body = at + 5;
      if (type === 0x50) {
        const name = cString(buffer, body);
        current = oneLine(cString(buffer, name.next).text);
        if (name.text) textOf.set(name.text, current);
      } else if (type === 0x42) {
        const statement = cString(buffer, cString(buffer, body).next).text;
        if (statement) current = textOf.get(statement) ?? statement;
      } else if (type === 0x51) {
        current = oneLine(cString(buffer, body).text);
        runs++;
      } else if (type === 0x45) runs++;
      at += 1 + length;
    }
    return { statement: current, runs };
  };
}

export type StatementCall = { statement: string; runs: number; ms: number; cpuMs: number };

/** Calls `seen` after each of PGlite's protocol calls: the statement it worked on, its runs (0 for a parse alone), its time. */
export function watchStatements(pglite: object, seen: (call: StatementCall) => void): void {
  const instance = pglite as { execProtocolRawSync(message: Uint8Array): Uint8Array };
  const run = instance.execProtocolRawSync.bind(instance);
  const track = statementTracker();
  instance.execProtocolRawSync = (message) => {
    const started = performance.now();
    const cpuStarted = threadCpuMs();
    try {
      return run(message);
    } finally {
      const ms = performance.now() - started;
      const cpuMs = threadCpuMs() - cpuStarted;
      seen({ ...track(message), ms, cpuMs });
    }
  };
}
