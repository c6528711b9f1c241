// The support console's API (issue 57): an operator (a verified account in ADMIN_EMAILS, signed in)
// finds a customer, grants and deducts tokens (never below zero), refunds a job once, flags and
// unflags, resends the verification mail, revokes a key, signs the account out everywhere; each
// change is a ledger row or a flag the customer sees and an audit entry written with it. A customer,
// a signed-out caller and any API key (an operator's too) get the 404 of a route that does not exist;
// a missing reason is a 400 that names it, and a refusal changes nothing.
// The backend serves the web role only: the jobs it charges wait in the queue until a test ends them.
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/contract/accounts';
import {
  ADMIN_MESSAGES,
  type AdminAccountDetail,
  type AdminAccountList,
  type AdminAuditPage,
  type AdminFlagsResult,
  type AdminJobPage,
  type AdminLedgerPage,
  type AdminOverview,
  type AdminRefundResult,
  type AdminRevokeKeyResult,
  type AdminSignOutResult,
  type AdminTokensResult,
  type AdminVerificationMailResult,
} from '../../src/contract/admin';
import type { CreatedApiKey } from '../../src/contract/api-keys';
import { grantTokens, setFlag } from '../../src/server/admin/commands';
import { adminAudit, jobs, ledger, mailOutbox, profiles, user } from '../../src/server/db/schema';
import { failAndRefund } from '../../src/server/jobs/refunds';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { sendRequest, TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { chargeTextToPicJob, tokensOf, verifiedUser } from '../support/tool-fixtures';

const OPERATOR_EMAIL = 'boss@example.com';
const UNVERIFIED_OPERATOR_EMAIL = 'new.boss@example.com';

let backend: TestBackend;
let operator: TestClient;
let operatorId: string;

/** A signed-up account with this email, verified unless asked otherwise. */
async function account(email: string, verified = true) {
  const client = new TestClient(backend.app, backend.config.appUrl);
  expect((await client.signUp(email)).status).toBe(200);
  if (verified) await backend.database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  const id = (await client.get<{ user: { id: string } }>('/api/auth/get-session')).body.user.id;
  return { client, id };
}

beforeAll(async () => {
  backend = await createTestBackend({
    // Written as an operator might: spaces, another case. Both are operators once verified.
    env: { ADMIN_EMAILS: ` Boss@Example.com ,${UNVERIFIED_OPERATOR_EMAIL.toUpperCase()}` },
    role: { web: true, worker: false },
  });
  ({ client: operator, id: operatorId } = await account(OPERATOR_EMAIL));
});
afterAll(() => backend.stop());
afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

const db = () => backend.database.db;
const auditCount = async () => (await db().select({ n: count() }).from(adminAudit))[0]?.n ?? 0;
const ledgerOf = (userId: string) => db().select().from(ledger).where(eq(ledger.userId, userId));
const profileOf = async (client: TestClient) => (await client.get<Profile>('/api/profile')).body;

/** Everything the money and flags of an account are, to show that a refusal changed none of it. */
async function stateOf(userId: string) {
  const [profile] = await db().select().from(profiles).where(eq(profiles.userId, userId));
  return { profile, ledger: await ledgerOf(userId), audit: await auditCount() };
}

/** A job of the customer's, charged 1 token, that ended `status` without any refund. */
async function endedJob(userId: string, status: 'failed' | 'succeeded') {
  const { job } = await chargeTextToPicJob(backend, userId);
  // As a fault would leave a failed one (its refund never made), or as a good run leaves a success.
  await db()
    .update(jobs)
    .set({ status, finishedAt: new Date(), error: status === 'failed' ? 'The provider stopped answering.' : null })
    .where(eq(jobs.id, job.id));
  return job.id;
}

describe('an operator', () => {
  it('is told who they are', async () => {
    expect(await operator.get('/api/admin/me')).toMatchObject({
      status: 200,
      body: { id: operatorId, name: OPERATOR_EMAIL },
    });
  });

  it('finds a customer by email (exact, or its start, in any case), by id and by Stripe customer id', async () => {
    const customer = await account('found.customer@example.com');
    await db().update(profiles).set({ stripeCustomerId: 'cus_FoundOne' }).where(eq(profiles.userId, customer.id));
    const find = async (q: string) =>
      (await operator.get<AdminAccountList>(`/api/admin/accounts?q=${encodeURIComponent(q)}`)).body.accounts;

    const [exact] = await find('Found.Customer@example.com');
    expect(exact).toMatchObject({
      id: customer.id,
      email: 'found.customer@example.com',
      emailVerified: true,
      tokens: 20,
      isDispute: false,
      isFraudulent: false,
      stripeCustomerId: 'cus_FoundOne',
    });
    expect((await find('found.cust')).map((a) => a.id)).toEqual([customer.id]);
    expect((await find(customer.id)).map((a) => a.id)).toEqual([customer.id]);
    expect((await find('cus_FoundOne')).map((a) => a.id)).toEqual([customer.id]);
    // A LIKE pattern's characters are letters here, not wildcards.
    expect(await find('found_customer')).toEqual([]);
    expect(await find('nobody@example.com')).toEqual([]);
  });

  it('grants tokens with a reason: a grant in the ledger the customer sees, and its audit entry', async () => {
    const customer = await account('granted@example.com');
    const granted = await operator.post<AdminTokensResult>(`/api/admin/accounts/${customer.id}/tokens`, {
      delta: 100,
      reason: 'Apology for the outage on Monday',
    });
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.balance).toBe(120);
    expect(granted.body.audit).toMatchObject({
      operator: { id: operatorId, name: OPERATOR_EMAIL },
      action: 'tokens',
      accountId: customer.id,
      accountEmail: 'granted@example.com',
      reason: 'Apology for the outage on Monday',
      before: { tokens: 20 },
      after: { tokens: 120 },
    });
    expect(await tokensOf(customer.client)).toBe(120);

    const detail = await operator.get<AdminAccountDetail>(`/api/admin/accounts/${customer.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.account.tokens).toBe(120);
    expect(detail.body.ledgerMatchesBalance).toBe(true);
    expect(detail.body.ledger.items.map((r) => [r.reason, r.delta, r.reference, r.note])).toEqual([
      ['grant', 100, `audit:${granted.body.audit.id}`, 'Apology for the outage on Monday'],
      ['signup', 20, customer.id, null],
    ]);
    expect(detail.body.audit.items).toEqual([granted.body.audit]);
  });

  it('deducts tokens down to zero, and refuses a deduction below zero with a sentence, changing nothing', async () => {
    const customer = await account('deducted@example.com');
    const before = await stateOf(customer.id);
    const tooMuch = await operator.post(`/api/admin/accounts/${customer.id}/tokens`, {
      delta: -21,
      reason: 'Tokens granted by mistake',
    });
    expect(tooMuch).toMatchObject({ status: 400, body: { error: ADMIN_MESSAGES.belowZero(20) } });
    expect(await stateOf(customer.id)).toEqual(before);
    expect(before.profile?.tokens).toBe(20);

    const deducted = await operator.post<AdminTokensResult>(`/api/admin/accounts/${customer.id}/tokens`, {
      delta: -20,
      reason: 'Tokens granted by mistake',
    });
    expect(deducted.status).toBe(200);
    expect(deducted.body.balance).toBe(0);
    expect(await tokensOf(customer.client)).toBe(0);
    const rows = await ledgerOf(customer.id);
    expect(rows.find((r) => r.delta === -20)).toMatchObject({
      reason: 'adjustment',
      reference: `audit:${deducted.body.audit.id}`,
    });
  });

  it('refunds a failed job once: a second refund is refused and changes nothing', async () => {
    const customer = await verifiedUser(backend, 20);
    const jobId = await endedJob(customer.id, 'failed');
    expect(await tokensOf(customer.client)).toBe(19);

    const refund = await operator.post<AdminRefundResult>(`/api/admin/jobs/${jobId}/refund`, {
      reason: 'The job failed and was never refunded',
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body).toMatchObject({ refunded: 1, balance: 20 });
    expect(refund.body.audit).toMatchObject({ action: 'refund', accountId: customer.id, subject: jobId });
    expect(await tokensOf(customer.client)).toBe(20);

    const before = await stateOf(customer.id);
    const again = await operator.post(`/api/admin/jobs/${jobId}/refund`, { reason: 'Once more' });
    expect(again).toMatchObject({ status: 409, body: { error: ADMIN_MESSAGES.jobAlreadyRefunded } });
    expect(await stateOf(customer.id)).toEqual(before);

    const listed = await operator.get<AdminJobPage>(`/api/admin/accounts/${customer.id}/jobs`);
    expect(listed.body.items.find((j) => j.id === jobId)).toMatchObject({
      status: 'failed',
      error: 'The provider stopped answering.',
      charged: 1,
      refunded: 1,
    });
  });

  it('refuses to refund a job refunded when it failed, a job still queued, and a job it does not know', async () => {
    const customer = await verifiedUser(backend, 20);
    const { job: failing } = await chargeTextToPicJob(backend, customer.id);
    await failAndRefund(db(), failing.id, 'The provider failed.');
    const { job: queued } = await chargeTextToPicJob(backend, customer.id);
    const before = await stateOf(customer.id);

    const reason = { reason: 'The customer asked' };
    expect(await operator.post(`/api/admin/jobs/${failing.id}/refund`, reason)).toMatchObject({
      status: 409,
      body: { error: ADMIN_MESSAGES.jobAlreadyRefunded },
    });
    expect(await operator.post(`/api/admin/jobs/${queued.id}/refund`, reason)).toMatchObject({
      status: 409,
      body: { error: ADMIN_MESSAGES.jobNotEnded },
    });
    for (const id of [randomUUID(), 'not-a-job']) {
      expect(await operator.post(`/api/admin/jobs/${id}/refund`, reason)).toMatchObject({
        status: 404,
        body: { error: ADMIN_MESSAGES.jobNotFound },
      });
    }
    expect(await stateOf(customer.id)).toEqual(before);
  });

  it('sets and clears the dispute and fraud flags, which the customer sees', async () => {
    const customer = await account('flagged@example.com');
    const set = await operator.post<AdminFlagsResult>(`/api/admin/accounts/${customer.id}/flags`, {
      isDispute: true,
      isFraudulent: true,
      reason: 'Chargeback opened at the bank',
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ isDispute: true, isFraudulent: true });
    expect(set.body.audit).toMatchObject({
      action: 'flags',
      before: { isDispute: false, isFraudulent: false },
      after: { isDispute: true, isFraudulent: true },
    });
    expect(await profileOf(customer.client)).toMatchObject({ isDispute: true, isFraudulent: true });

    const cleared = await operator.post<AdminFlagsResult>(`/api/admin/accounts/${customer.id}/flags`, {
      isFraudulent: false,
      reason: 'The bank closed the chargeback in our favour',
    });
    expect(cleared.body).toMatchObject({ isDispute: true, isFraudulent: false });
    expect(await profileOf(customer.client)).toMatchObject({ isDispute: true, isFraudulent: false });

    const none = await operator.post(`/api/admin/accounts/${customer.id}/flags`, { reason: 'Nothing said' });
    expect(none).toMatchObject({ status: 400, body: { error: ADMIN_MESSAGES.flagsMissing } });
  });

  it('lists the audit log newest first, all of it and one account at a time', async () => {
    const customer = await account('audited@example.com');
    const url = `/api/admin/accounts/${customer.id}`;
    await operator.post(`${url}/tokens`, { delta: 5, reason: 'First' });
    await operator.post(`${url}/flags`, { isDispute: true, reason: 'Second' });
    await operator.post(`${url}/flags`, { isDispute: false, reason: 'Third' });

    const mine = await operator.get<AdminAuditPage>(`/api/admin/audit?account=${customer.id}`);
    expect(mine.body.items.map((e) => [e.action, e.reason])).toEqual([
      ['flags', 'Third'],
      ['flags', 'Second'],
      ['tokens', 'First'],
    ]);
    expect(mine.body).toMatchObject({ page: 1, total: 3 });
    const all = await operator.get<AdminAuditPage>('/api/admin/audit');
    expect(all.body.items.slice(0, 3)).toEqual(mine.body.items);
    expect(all.body.total).toBe(await auditCount());
    expect(await operator.get('/api/admin/audit?page=0')).toMatchObject({
      status: 400,
      body: { error: ADMIN_MESSAGES.badPage },
    });
  });

  it('resends the verification mail to an unverified account, once a minute', async () => {
    const email = 'unverified.customer@example.com';
    const customer = await account(email, false);
    const mails = async () => (await db().select().from(mailOutbox).where(eq(mailOutbox.to, email))).length;
    const sent = await operator.post<AdminVerificationMailResult>(
      `/api/admin/accounts/${customer.id}/verification-mail`,
      { reason: 'The customer never got the first one' },
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.audit).toMatchObject({ action: 'verification-mail', after: { sentTo: email } });
    expect(await mails()).toBe(1);

    const audited = await auditCount();
    const soon = await operator.post<{ error: string }>(`/api/admin/accounts/${customer.id}/verification-mail`, {
      reason: 'Again',
    });
    expect(soon.status).toBe(429);
    expect(soon.body.error).toMatch(/^A verification mail went to this account less than a minute ago/);
    expect(await mails()).toBe(1);
    expect(await auditCount()).toBe(audited);
  });

  it("revokes a customer's key and signs the customer out everywhere", async () => {
    const customer = await verifiedUser(backend, 20);
    const key = (await customer.client.post<CreatedApiKey>('/api/keys', { name: 'Shop' })).body;
    const withKey = () =>
      sendRequest(backend.app, 'GET', '/api/profile', { headers: { authorization: `Bearer ${key.key}` } });
    expect((await withKey()).status).toBe(200);
    const detail = await operator.get<AdminAccountDetail>(`/api/admin/accounts/${customer.id}`);
    expect(detail.body.apiKeys).toEqual([
      expect.objectContaining({ id: key.id, name: 'Shop', prefix: key.key.slice(0, 12) }),
    ]);
    expect(JSON.stringify(detail.body)).not.toContain(key.key.slice(12));
    expect(detail.body.sessions).toHaveLength(1);

    const revoked = await operator.post<AdminRevokeKeyResult>(`/api/admin/keys/${key.id}/revoke`, {
      reason: 'The key was posted on a public forum',
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.audit).toMatchObject({ action: 'revoke-key', subject: key.id, before: { name: 'Shop' } });
    expect((await withKey()).status).toBe(401);

    const signedOut = await operator.post<AdminSignOutResult>(`/api/admin/accounts/${customer.id}/sign-out`, {
      reason: 'The customer lost a laptop',
    });
    expect(signedOut.body).toMatchObject({ sessionsEnded: 1, audit: { action: 'sign-out' } });
    expect((await customer.client.get('/api/profile')).status).toBe(401);
    // The operator is still signed in.
    expect((await operator.get('/api/admin/overview')).status).toBe(200);
  });

  it('answers 404 with a sentence for an account, a key or a page it does not know', async () => {
    const unknown = 'no-such-account';
    for (const [method, path] of [
      ['GET', `/api/admin/accounts/${unknown}`],
      ['GET', `/api/admin/accounts/${unknown}/ledger`],
      ['GET', `/api/admin/accounts/${unknown}/jobs`],
      ['POST', `/api/admin/accounts/${unknown}/tokens`],
      ['POST', `/api/admin/accounts/${unknown}/flags`],
      ['POST', `/api/admin/accounts/${unknown}/sign-out`],
      ['POST', `/api/admin/accounts/${unknown}/verification-mail`],
    ] as const) {
      const body = { reason: 'Checking', delta: 1, isDispute: true };
      expect(await operator.request(method, path, method === 'POST' ? { body } : {}), path).toMatchObject({
        status: 404,
        body: { error: ADMIN_MESSAGES.accountNotFound },
      });
    }
    expect(await operator.post(`/api/admin/keys/${randomUUID()}/revoke`, { reason: 'Checking' })).toMatchObject({
      status: 404,
      body: { error: ADMIN_MESSAGES.keyNotFound },
    });
  });

  it('shows the last day and month: sign-ups, tool calls, failures, refunds, the queue and alerts', async () => {
    const customer = await verifiedUser(backend, 20);
    const jobId = await endedJob(customer.id, 'failed');
    await operator.post(`/api/admin/jobs/${jobId}/refund`, { reason: 'Overview check' });
    await chargeTextToPicJob(backend, customer.id);
    const overview = await operator.get<AdminOverview>('/api/admin/overview');
    expect(overview.status).toBe(200);
    const { last24Hours: day, last30Days: month } = overview.body;
    const signUps = (await db().select({ n: count() }).from(user))[0]?.n;
    expect(day.signUps).toBe(signUps);
    expect(month.signUps).toBe(signUps);
    expect(overview.body.hourly).toHaveLength(24);
    expect(overview.body.daily).toHaveLength(30);
    expect(overview.body.hourly.reduce((sum, b) => sum + b.signUps, 0)).toBe(signUps);
    const calls = await db().select({ n: count() }).from(jobs);
    expect(day.toolCalls).toEqual([{ tool: 'text-to-pic', provider: 'demo', count: calls[0]?.n }]);
    expect(day.failures).toContainEqual({ reason: 'The provider stopped answering.', count: expect.any(Number) });
    expect(day.refunds.count).toBeGreaterThanOrEqual(1);
    expect(day.tokensSpent).toBe(calls[0]?.n);
    const waiting = await db().select({ n: count() }).from(jobs).where(eq(jobs.status, 'queued'));
    expect(overview.body.queue).toMatchObject({ waiting: waiting[0]?.n, running: 0 });
    expect(overview.body.queue.oldestWaitingSeconds).toEqual(expect.any(Number));
    expect(overview.body.workersAlive).toBe(0);
    expect(overview.body.alerts).toEqual({ paidNotCredited: [], refundFailed: [] });
  });
});

describe('a missing reason', () => {
  it('is a 400 that names it, for every action, and nothing changes', async () => {
    const customer = await verifiedUser(backend, 20);
    const jobId = await endedJob(customer.id, 'succeeded');
    const key = (await customer.client.post<CreatedApiKey>('/api/keys', { name: 'Kept' })).body;
    const url = `/api/admin/accounts/${customer.id}`;
    const before = await stateOf(customer.id);
    const actions: [string, Record<string, unknown>][] = [
      [`${url}/tokens`, { delta: 5 }],
      [`${url}/flags`, { isFraudulent: true }],
      [`${url}/sign-out`, {}],
      [`${url}/verification-mail`, {}],
      [`/api/admin/jobs/${jobId}/refund`, {}],
      [`/api/admin/keys/${key.id}/revoke`, {}],
    ];
    for (const [path, body] of actions) {
      for (const reason of [undefined, '', '   ']) {
        const answer = await operator.post(path, reason === undefined ? body : { ...body, reason });
        expect(answer, `${path} ${JSON.stringify(reason)}`).toMatchObject({
          status: 400,
          body: { error: ADMIN_MESSAGES.reasonRequired },
        });
      }
    }
    expect(await stateOf(customer.id)).toEqual(before);
    expect((await customer.client.get('/api/keys')).body).toMatchObject({ keys: [{ id: key.id }] });
    expect((await customer.client.get('/api/profile')).status).toBe(200);
  });
});

describe('anyone but an operator', () => {
  const ROUTES: [string, string][] = [
    ['GET', '/api/admin/accounts?q=example'],
    ['GET', '/api/admin/accounts/some-id'],
    ['GET', '/api/admin/accounts/some-id/ledger'],
    ['GET', '/api/admin/accounts/some-id/jobs'],
    ['POST', '/api/admin/accounts/some-id/tokens'],
    ['POST', '/api/admin/accounts/some-id/flags'],
    ['POST', '/api/admin/accounts/some-id/verification-mail'],
    ['POST', '/api/admin/accounts/some-id/sign-out'],
    ['POST', `/api/admin/jobs/${randomUUID()}/refund`],
    ['POST', `/api/admin/keys/${randomUUID()}/revoke`],
    ['GET', '/api/admin/audit'],
    ['GET', '/api/admin/overview'],
    ['GET', '/api/admin/me'],
    ['GET', '/api/admin'],
  ];
  const body = { delta: 1000, isFraudulent: true, reason: 'Trying my luck' };
  /** What the API answers a route that does not exist: the console must look the same. */
  const notFound = (method: string, path: string) => ({
    status: 404,
    body: { error: `No API route for ${method} ${path.split('?')[0]}` },
  });

  it('gets the 404 of an unknown route: signed out, a customer, an unverified address on the list', async () => {
    const signedOut = new TestClient(backend.app, backend.config.appUrl);
    const { client: customer } = await account('curious.customer@example.com');
    const { client: unverified } = await account(UNVERIFIED_OPERATOR_EMAIL, false);
    expect(await customer.get('/api/no-such-route')).toMatchObject(notFound('GET', '/api/no-such-route'));
    const audited = await auditCount();
    for (const client of [signedOut, customer, unverified]) {
      for (const [method, path] of ROUTES) {
        const answer = await client.request(method, path, method === 'POST' ? { body } : {});
        expect(answer, `${method} ${path}`).toMatchObject(notFound(method, path));
      }
    }
    expect(await auditCount()).toBe(audited);
  });

  it("gets the same 404 with an API key, the operator's own included", async () => {
    const key = (await operator.post<CreatedApiKey>('/api/keys', { name: 'Operator script' })).body;
    expect(key.key).toMatch(/^pp_/);
    const before = await tokensOf(operator);
    for (const [method, path] of ROUTES) {
      const answer = await sendRequest(backend.app, method, path, {
        headers: { authorization: `Bearer ${key.key}` },
        body: method === 'POST' ? body : undefined,
      });
      expect(answer, `${method} ${path}`).toMatchObject(notFound(method, path));
    }
    // The operator's session cookie with a key beside it: still the key's answer.
    const both = await operator.request('GET', '/api/admin/overview', {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(both).toMatchObject(notFound('GET', '/api/admin/overview'));
    expect(await tokensOf(operator)).toBe(before);
  });

  it("refuses an operator's change from another site's page (Origin), changing nothing", async () => {
    const customer = await account('csrf.target@example.com');
    const before = await stateOf(customer.id);
    const answer = await operator.request('POST', `/api/admin/accounts/${customer.id}/tokens`, {
      body: { delta: 1000, reason: 'A forged form' },
      headers: { origin: 'https://evil.example' },
    });
    expect(answer.status).toBe(403);
    expect(await stateOf(customer.id)).toEqual(before);
  });
});

describe('npm run admin', () => {
  it('writes its grants and flags to the same audit log, as the cli and its OS user', async () => {
    const customer = await account('cli.customer@example.com');
    await grantTokens(db(), 'cli.customer@example.com', 7, 'Goodwill after a phone call');
    await setFlag(db(), 'cli.customer@example.com', 'dispute', true, 'Card holder disputes the charge');
    const log = await operator.get<AdminAuditPage>(`/api/admin/audit?account=${customer.id}`);
    expect(log.body.items).toMatchObject([
      {
        operator: { id: 'cli', name: expect.any(String) },
        action: 'flags',
        reason: 'Card holder disputes the charge',
        after: { isDispute: true },
      },
      {
        operator: { id: 'cli' },
        action: 'tokens',
        reason: 'Goodwill after a phone call',
        before: { tokens: 20 },
        after: { tokens: 27 },
      },
    ]);
    const ledgerPage = await operator.get<AdminLedgerPage>(`/api/admin/accounts/${customer.id}/ledger`);
    expect(ledgerPage.body.items[0]).toMatchObject({
      reason: 'grant',
      delta: 7,
      reference: `audit:${log.body.items[1]?.id}`,
    });
  });
});
