// Support's operations on an account, and that the user sees their effect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/contract/accounts';
import { AdminError, grantTokens, lookupAccount, setFlag } from '../../src/server/admin/commands';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { tokensOf } from '../support/tool-fixtures';

describe('admin commands', () => {
  let backend: TestBackend;
  let browser: TestClient;
  const email = 'support.case@example.com';
  beforeAll(async () => {
    backend = await createTestBackend();
    browser = new TestClient(backend.app, backend.config.appUrl);
    expect((await browser.signUp(email)).status).toBe(200);
  });
  afterAll(() => backend.stop());

  it('grants tokens as a ledger row the user sees in their balance', async () => {
    const result = await grantTokens(backend.database.db, 'Support.Case@example.com', 100, 'apology for an outage');
    expect(result).toEqual({ email, granted: 100, balance: 120 });
    expect(await tokensOf(browser)).toBe(120);
    const account = await lookupAccount(backend.database.db, email);
    expect(account.recentLedger.map((r) => [r.reason, r.delta, r.note])).toEqual([
      ['grant', 100, 'apology for an outage'],
      ['signup', 20, null],
    ]);
    expect(account.ledgerMatchesBalance).toBe(true);
  });

  it.each([0, -5, 1.5, 1_000_001])('refuses to grant %s tokens and changes nothing', async (amount) => {
    const before = await tokensOf(browser);
    await expect(grantTokens(backend.database.db, email, amount)).rejects.toThrow(AdminError);
    expect(await tokensOf(browser)).toBe(before);
  });

  it('sets and clears the dispute and fraud flags', async () => {
    await setFlag(backend.database.db, email, 'dispute', true);
    await setFlag(backend.database.db, email, 'fraud', true);
    expect((await browser.get<Profile>('/api/profile')).body).toMatchObject({ isDispute: true, isFraudulent: true });
    await setFlag(backend.database.db, email, 'fraud', false);
    expect((await browser.get<Profile>('/api/profile')).body).toMatchObject({ isDispute: true, isFraudulent: false });
  });

  it('names an unknown account', async () => {
    await expect(lookupAccount(backend.database.db, 'nobody@example.com')).rejects.toThrow(
      'No account for nobody@example.com.',
    );
    expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
  });
});
