// bench/soak: the server under steady tool calls for 5 minutes (PGlite, instant provider, 20
// connections): does its memory grow? The server's RSS and heap are read after a full garbage
// collection once warmed up (30 s of the same load) and again at the end; the target is growth
// under 10%. The ledger is checked at rest afterwards, as in bench/load.
//   npm run bench:soak -- [--minutes 5] [--connections 20]
import { arg, brokenInvariants, hammer, startLoadServer } from './load/harness';

const MINUTES = arg('minutes', 5);
const CONNECTIONS = arg('connections', 20);
const WARM_UP_SECONDS = 30;

// Enough tokens that nobody runs out: every call is a whole job.
const server = await startLoadServer('', 20, 1_000_000);
console.log(`soak: POST /api/generate-image, ${CONNECTIONS} connections, PGlite, instant provider`);
const warm = await hammer(server.ready, CONNECTIONS, WARM_UP_SECONDS);
const before = await server.memory();
console.log(
  `after ${WARM_UP_SECONDS} s warm-up (${warm.ok} calls): RSS ${before.rssMb.toFixed(0)} MB, heap ${before.heapMb.toFixed(0)} MB`,
);
const soak = await hammer(server.ready, CONNECTIONS, MINUTES * 60);
const after = await server.memory();
const check = await server.check();
const rssGrowth = after.rssMb / before.rssMb - 1;
const heapGrowth = after.heapMb / before.heapMb - 1;
console.log(
  `after ${MINUTES} min more (${soak.ok} calls, ${soak.result.requests.average.toFixed(0)} req/s, p99 ${soak.result.latency.p99} ms): ` +
    `RSS ${after.rssMb.toFixed(0)} MB (${(rssGrowth * 100).toFixed(1)}%), heap ${after.heapMb.toFixed(0)} MB (${(heapGrowth * 100).toFixed(1)}%)`,
);
console.log(
  `errors ${soak.other + warm.other}; jobs ${check.jobs} = debits ${check.debits} = succeeded ${check.succeeded}; ledger mismatches ${check.mismatches}`,
);
const failed =
  rssGrowth >= 0.1 || brokenInvariants({ ok: warm.ok + soak.ok, other: warm.other + soak.other }, check).length > 0;
console.log(failed ? 'FAILED' : 'held: memory growth under 10%, no errors, ledger exact');
process.exit(failed ? 1 : 0);
