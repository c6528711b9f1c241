// Per-account sign-in throttling (issue 36): wrong passwords from many addresses pause sign-in for
// that email (known or not, alike) and tell the owner once by mail; a pause ends after its minutes.
// Wrong current passwords at /change-password count with them (a stolen session guessing, issue 53).
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURES_BEFORE_PAUSE, failureKey, SIGN_IN_PAUSED_MESSAGE } from '../../src/server/auth/sign-in-throttle';
import { rateLimit } from '../../src/server/db/schema';
import { listOutbox } from '../../src/server/mail/outbox-mailer';
import { TestClient } from '../support/http-client';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend();
});
afterAll(() => backend.stop());

/** Every attempt from an address of its own, as the attack's 60 addresses: the per-address limits never apply. */
const fromNewAddress = () => new TestClient(backend.app, backend.config.appUrl);
const mailsTo = async (email: string) =>
  (await listOutbox(backend.database, { limit: 200 })).filter(
    (m) => m.to === email && /failed sign-ins/i.test(m.subject),
  );

describe('sign-in throttling per account', () => {
  it('pauses an account after a burst of wrong passwords from many addresses, and mails its owner once', async () => {
    const email = `target.${Date.now()}@example.com`;
    expect((await fromNewAddress().signUp(email)).status).toBe(200);
    for (let i = 0; i < FAILURES_BEFORE_PAUSE; i++) {
      expect((await fromNewAddress().signIn(email, `wrong password ${i}`)).status).toBe(401);
    }
    // Now even the right password waits: the attacker cannot go on guessing.
    const paused = await fromNewAddress().signIn(email);
    expect([paused.status, (paused.body as { message?: string }).message]).toEqual([429, SIGN_IN_PAUSED_MESSAGE]);
    expect(Number(paused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await fromNewAddress().signIn(email.toUpperCase(), 'wrong again')).status).toBe(429);

    // The mail goes in the background, once: only the failure that starts the pause sends it.
    await eventually(async () => (await mailsTo(email)).length > 0);
    expect(await mailsTo(email)).toHaveLength(1);

    // The pause over (its time moved back), the right password signs in and the count starts again.
    await backend.database.db
      .update(rateLimit)
      .set({ lastRequest: sql`${rateLimit.lastRequest} - 600000` })
      .where(eq(rateLimit.key, failureKey(email)));
    expect((await fromNewAddress().signIn(email)).status).toBe(200);
    expect(
      await backend.database.db
        .select()
        .from(rateLimit)
        .where(eq(rateLimit.key, failureKey(email))),
    ).toEqual([]);
    expect((await fromNewAddress().signIn(email, 'one more wrong')).status).toBe(401);
  });

  it('pauses an unknown email the same way, so a pause tells nothing, and mails nobody', async () => {
    const email = `nobody.${Date.now()}@example.com`;
    for (let i = 0; i < FAILURES_BEFORE_PAUSE; i++) {
      expect((await fromNewAddress().signIn(email, `guess ${i}`)).status).toBe(401);
    }
    expect((await fromNewAddress().signIn(email)).status).toBe(429);
    expect(await mailsTo(email)).toEqual([]);
  });
});

describe('password guesses through a signed-in session (issue 53 item 4)', () => {
  it("count with the account's failed sign-ins, pause it from every address, and the right one changes nothing while paused", async () => {
    const email = `stolen.session.${Date.now()}@example.com`;
    const thief = fromNewAddress();
    expect((await thief.signUp(email)).status).toBe(200);
    const owner = fromNewAddress();
    expect((await owner.signIn(email)).status).toBe(200);
    // The stolen cookie used from four addresses: the per-address limit (10 in 5 minutes) never applies.
    const addresses = ['10.253.0.1', '10.253.0.2', '10.253.0.3', '10.253.0.4'];
    const changePassword = (currentPassword: string, address: string) =>
      thief.request<{ code?: string; message?: string }>('POST', '/api/auth/change-password', {
        body: { currentPassword, newPassword: 'taken over 123' },
        headers: { 'x-forwarded-for': address },
      });
    for (let i = 0; i < FAILURES_BEFORE_PAUSE; i++) {
      const wrong = await changePassword(`guess ${i}`, addresses[i % addresses.length] as string);
      expect([wrong.status, wrong.body.code]).toEqual([400, 'INVALID_PASSWORD']);
    }
    // Paused as a sign-in is: the right password from a fifth address changes nothing...
    const right = await changePassword('correct horse 42', '10.253.0.5');
    expect([right.status, right.body.message]).toEqual([429, SIGN_IN_PAUSED_MESSAGE]);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    // ... and signs nobody out; sign-in is paused too, and the owner was told once.
    expect((await owner.get<{ user?: unknown } | null>('/api/auth/get-session')).body?.user).toBeTruthy();
    expect((await fromNewAddress().signIn(email)).status).toBe(429);
    await eventually(async () => (await mailsTo(email)).length > 0); // the mail goes in the background
    expect(await mailsTo(email)).toHaveLength(1);

    // The pause over, the password is still the owner's.
    await backend.database.db
      .update(rateLimit)
      .set({ lastRequest: sql`${rateLimit.lastRequest} - 600000` })
      .where(eq(rateLimit.key, failureKey(email)));
    expect((await fromNewAddress().signIn(email)).status).toBe(200);
    expect((await fromNewAddress().signIn(email, 'taken over 123')).status).toBe(401);
  });
});
