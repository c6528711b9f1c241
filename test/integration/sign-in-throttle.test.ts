// Per-account sign-in throttling (issue 36): wrong passwords from many addresses pause sign-in for
// that email (known or not, alike) and tell the owner once by mail; a pause ends after its minutes.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAILURES_BEFORE_PAUSE, failureKey, SIGN_IN_PAUSED_MESSAGE } from '../../src/server/auth/sign-in-throttle';
import { rateLimit } from '../../src/server/db/schema';
import { listOutbox } from '../../src/server/mail/outbox-mailer';
import { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';

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

    await new Promise((resolve) => setTimeout(resolve, 300)); // the mail goes in the background
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);

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
