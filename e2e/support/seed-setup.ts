// The server-process tests (the `e2e-processes` project): no shared server and no browser, only the
// migrated PGlite seed that each server they start copies into its data directory.
import { ensurePgliteSeed } from '../../test/support/pglite-seed';

export default async function setup() {
  await ensurePgliteSeed();
}
