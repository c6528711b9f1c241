// `npm run admin -- <command>`: support's tool, on the configured database.
//   lookup <email>                         the account, its balance, flags and recent ledger
//   grant <email> <tokens> [reason...]     add tokens (a ledger row of reason grant)
//   flag <email> dispute|fraud on|off [reason...]   set or clear a suspension flag
// grant and flag write the audit log the console shows (operator `cli`, the OS user's name).
//   ledger-check                           every user whose balance differs from their ledger
//   alerts                                 what needs a hand: payments for deleted accounts not refunded
import { unrefundedPayments } from '../billing/account-payments';
import { ConfigError, loadConfig } from '../config';
import { migrateDatabase, openDatabase } from '../db/client';
import { DataDirInUseError } from '../db/data-dir-lock';
import { findLedgerMismatches } from '../ledger/ledger';
import { AdminError, grantTokens, lookupAccount, setFlag } from './commands';

const USAGE = `Usage: npm run admin -- <command>
  lookup <email>
  grant <email> <tokens> [reason...]
  flag <email> dispute|fraud on|off [reason...]
  ledger-check
  alerts`;

/** A usage mistake: thrown so that `finally` still closes the database, then reported below. */
class UsageError extends Error {}

function fail(message: string): never {
  throw new UsageError(message);
}

async function main(argv: string[]) {
  const [command, ...args] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const config = loadConfig(process.env);
  const database = await openDatabase(config.database);
  try {
    await migrateDatabase(database);
    const db = database.db;
    let result: unknown;
    switch (command) {
      case 'lookup':
        if (args.length !== 1) fail(USAGE);
        result = await lookupAccount(db, args[0] as string);
        break;
      case 'grant': {
        const [email, amount, ...note] = args;
        if (!email || !amount || !/^\d+$/.test(amount)) fail(USAGE);
        result = await grantTokens(db, email, Number(amount), note.length ? note.join(' ') : undefined);
        break;
      }
      case 'flag': {
        const [email, flag, state, ...reason] = args;
        if (!email || (flag !== 'dispute' && flag !== 'fraud') || (state !== 'on' && state !== 'off')) fail(USAGE);
        result = await setFlag(db, email, flag, state === 'on', reason.length ? reason.join(' ') : undefined);
        break;
      }
      case 'ledger-check': {
        const mismatches = await findLedgerMismatches(db);
        result = { ok: mismatches.length === 0, mismatches };
        if (mismatches.length > 0) process.exitCode = 1;
        break;
      }
      case 'alerts': {
        // Refund these in Stripe's dashboard (the session id finds the payment).
        const payments = await unrefundedPayments(db);
        result = { ok: payments.length === 0, unrefundedPayments: payments };
        if (payments.length > 0) process.exitCode = 1;
        break;
      }
      default:
        fail(`Unknown command "${command}".\n${USAGE}`);
    }
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error) => {
  const expected =
    error instanceof UsageError ||
    error instanceof AdminError ||
    error instanceof ConfigError ||
    error instanceof DataDirInUseError;
  console.error(expected ? error.message : error);
  process.exitCode = 1;
});
