// Runs benches one after another in this one process, each with its own arguments, as
// bench/benches.test.ts runs the in-process ones: Node, tsx and the server's modules are paid once
// (3 CPU-s a process), not once a bench. Each bench's output follows a line naming it
// (BENCH_HEADER); the first to fail ends the run with its error. Each bench still runs alone as well.
//   tsx bench/in-one-process.ts 'statements.ts --list' 'queue-depth.ts --seconds 0.3'
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The line before each bench's output: `### bench <script>`. */
export const BENCH_HEADER = '### bench ';

// Only as a script: bench/benches.test.ts imports BENCH_HEADER from here.
if (import.meta.main) {
  for (const [script, ...args] of process.argv.slice(2).map((run) => run.split(' ').filter(Boolean))) {
    if (!script?.endsWith('.ts')) throw new Error(`not a bench script: ${script}`);
    const file = path.resolve(import.meta.dirname, script);
    // A bench reads its options from the command line when it is imported.
    process.argv = [process.argv[0] as string, file, ...args];
    console.log(`${BENCH_HEADER}${script}`);
    await import(pathToFileURL(file).href);
  }
}
