// Accounts through the API, as the browser uses it: sign-up, the server-owned profile, the
// verification mail and link, the resend cooldown, and what a client must never be able to write.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_MESSAGES, type Profile } from '../../src/contract/accounts';
import { ledger, profiles, session, user, verification } from '../../src/server/db/schema';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { findLinks, listOutbox } from '../../src/server/mail/outbox-mailer';
import { TestClient } from '../support/http-client';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';

let backend: TestBackend;
let emailCounter = 0;
const newEmail = () => `designer${++emailCounter}.${Date.now()}@example.com`;
const client = () => new TestClient(backend.app, backend.config.appUrl);

async function mailTo(address: string, subject: RegExp) {
  return eventually(async () => {
    const messages = await listOutbox(backend.database, { limit: 200 });
    return messages.find((m) => m.to === address && subject.test(m.subject));
  });
}

/** The path of the link in the newest mail to `address` whose subject matches (after `count` such mails). */
async function linkPath(address: string, subject: RegExp, linkPart: string, count = 1) {
  const mail = await eventually(async () => {
    const mails = (await listOutbox(backend.database, { limit: 200 })).filter(
      (m) => m.to === address && subject.test(m.subject),
    );
    return mails.length >= count ? mails[0] : null;
  });
  const link = findLinks(mail.text).find((l) => l.includes(linkPart));
  if (!link) throw new Error(`no ${linkPart} link in the mail to ${address}`);
  return new URL(link).pathname + new URL(link).search;
}

async function userIdOf(address: string) {
  const [row] = await backend.database.db.select({ id: user.id }).from(user).where(eq(user.email, address));
  if (!row) throw new Error(`no user ${address}`);
  return row.id;
}

beforeAll(async () => {
  backend = await createTestBackend();
});
afterAll(() => backend.stop());

describe('sign-up', () => {
  it('creates the profile with 20 tokens as one ledger row, then a customer and a verification mail', async () => {
    const browser = client();
    const email = newEmail();
    const signUp = await browser.signUp(email);
    expect(signUp.status).toBe(200);

    const profile = await browser.get<Profile>('/api/profile');
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({
      email,
      tokens: 20,
      emailVerified: false,
      isDispute: false,
      isFraudulent: false,
    });

    const id = await userIdOf(email);
    const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    expect(rows.map((r) => ({ delta: r.delta, reason: r.reason }))).toEqual([{ delta: 20, reason: 'signup' }]);

    const mail = await mailTo(email, /verify/i);
    expect(findLinks(mail.text).some((link) => link.includes('/api/auth/verify-email?token='))).toBe(true);
    const withCustomer = await eventually(async () => {
      const p = (await browser.get<Profile>('/api/profile')).body;
      return p.stripeCustomerId ? p : null;
    });
    expect(withCustomer.stripeCustomerId).toMatch(/^cus_local_/);
  });

  it('verifies the address when the link from the mail is followed', async () => {
    const browser = client();
    const email = newEmail();
    await browser.signUp(email);
    const mail = await mailTo(email, /verify/i);
    const link = findLinks(mail.text).find((l) => l.includes('/verify-email?token='));
    expect(link).toBeDefined();

    const visit = await browser.get(new URL(link as string).pathname + new URL(link as string).search);
    expect(visit.status).toBe(302);
    // The page says "Email verified" (issue 54).
    expect(visit.headers.get('location')).toBe('/text-to-pic?emailVerified=1');
    expect((await browser.get<Profile>('/api/profile')).body.emailVerified).toBe(true);
  });

  it('refuses a second account for the same address, and a wrong password', async () => {
    const email = newEmail();
    expect((await client().signUp(email)).status).toBe(200);
    const again = await client().signUp(email, 'another password 1');
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: expect.stringMatching(/^USER_ALREADY_EXISTS/) });
    const wrong = await client().signIn(email, 'wrong password 1');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD' });
    expect((await client().signIn(email)).status).toBe(200);
  });

  it('gives 20 tokens once when two sign-ups race for one address', async () => {
    const email = newEmail();
    const results = await Promise.all([client().signUp(email), client().signUp(email), client().signUp(email)]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    const id = await userIdOf(email);
    const users = await backend.database.db.select().from(user).where(eq(user.email, email));
    expect(users).toHaveLength(1);
    const [profile] = await backend.database.db.select().from(profiles).where(eq(profiles.userId, id));
    expect(profile?.tokens).toBe(20);
    const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    expect(rows).toHaveLength(1);
    expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
  });

  it('rejects a short password with the provider message and creates nothing', async () => {
    const email = newEmail();
    const response = await client().signUp(email, 'short');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ code: 'PASSWORD_TOO_SHORT', message: 'Password too short' });
    const users = await backend.database.db.select().from(user).where(eq(user.email, email));
    expect(users).toHaveLength(0);
  });
});

describe('the verification link', () => {
  it('signs in a signed-out browser that opens it, as the spec wants', async () => {
    const email = newEmail();
    await client().signUp(email);
    const link = await linkPath(email, /verify/i, '/verify-email?token=');

    const mailReader = client();
    const visit = await mailReader.get(link);
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe('/text-to-pic?emailVerified=1');
    const profile = await mailReader.get<Profile>('/api/profile');
    expect(profile.body).toMatchObject({ email, emailVerified: true });
    // Opened again, it verifies nothing new: the page says nothing.
    expect((await mailReader.get(link)).headers.get('location')).toBe('/text-to-pic');
  });

  it('verifies, but leaves a browser signed in as someone else in its own account', async () => {
    const attackerEmail = newEmail();
    await client().signUp(attackerEmail);
    const attackerLink = await linkPath(attackerEmail, /verify/i, '/verify-email?token=');
    const victim = client();
    const victimEmail = newEmail();
    await victim.signUp(victimEmail);

    const visit = await victim.get(attackerLink);
    expect(visit.status).toBe(302);
    const target = new URL(visit.headers.get('location') as string, backend.config.appUrl);
    expect(target.pathname).toBe('/text-to-pic');
    expect(target.searchParams.get('verifiedEmail')).toBe(attackerEmail);
    expect(target.searchParams.has('emailVerified')).toBe(false);

    expect((await victim.get<Profile>('/api/profile')).body).toMatchObject({
      email: victimEmail,
      emailVerified: false,
    });
    const [attacker] = await backend.database.db.select().from(user).where(eq(user.email, attackerEmail));
    expect(attacker?.emailVerified).toBe(true);
    // Only the attacker's own sign-up session: none was made for the victim's browser.
    const attackerSessions = await backend.database.db
      .select()
      .from(session)
      .where(eq(session.userId, attacker?.id ?? ''));
    expect(attackerSessions).toHaveLength(1);
  });
});

describe('password change', () => {
  it.each([false, undefined])(
    'ends the other sessions even when the client sends revokeOtherSessions: %s',
    async (revoke) => {
      const email = newEmail();
      const laptop = client();
      await laptop.signUp(email, 'old password 123');
      const phone = client();
      expect((await phone.signIn(email, 'old password 123')).status).toBe(200);

      const change = await laptop.post('/api/auth/change-password', {
        currentPassword: 'old password 123',
        newPassword: 'new password 456',
        revokeOtherSessions: revoke,
      });
      expect(change.status).toBe(200);
      expect((await phone.get('/api/auth/get-session')).body).toBeNull();
      expect((await laptop.get<Profile>('/api/profile')).body.email).toBe(email);
      expect((await client().signIn(email, 'new password 456')).status).toBe(200);
    },
  );
});

describe('names', () => {
  const nameTooLong = { message: 'Name must be at most 100 characters.' };

  it('refuses a sign-up whose name is over 100 characters, and creates nothing', async () => {
    for (const name of ['n'.repeat(101), 'n'.repeat(900_000)]) {
      const email = newEmail();
      const response = await client().post('/api/auth/sign-up/email', { email, password: 'correct horse 42', name });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject(nameTooLong);
      expect(await backend.database.db.select().from(user).where(eq(user.email, email))).toEqual([]);
    }
    const fits = await client().post('/api/auth/sign-up/email', {
      email: newEmail(),
      password: 'correct horse 42',
      name: 'n'.repeat(100),
    });
    expect(fits.status).toBe(200);
  });

  it('refuses a name with a NUL or a lone surrogate at sign-up and update-user, and writes nothing', async () => {
    const unstorable = {
      message:
        'Name contains characters that cannot be stored (a control character such as NUL, or a broken Unicode character).',
    };
    for (const name of ['bad\u0000name', 'x\ud800', '\udc00y']) {
      const email = newEmail();
      const response = await client().post('/api/auth/sign-up/email', { email, password: 'correct horse 42', name });
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect(response.body).toMatchObject(unstorable);
      expect(await backend.database.db.select().from(user).where(eq(user.email, email))).toEqual([]);
    }
    const browser = client();
    await browser.signUp(newEmail());
    const update = await browser.post('/api/auth/update-user', { name: 'a\u0000b' });
    expect(update.status).toBe(400);
    expect(update.body).toMatchObject(unstorable);
    expect((await browser.post('/api/auth/update-user', { name: 'Zoë 🎨' })).status).toBe(200);
  });

  it('refuses an image that is not one of our files at sign-up and update-user, and changes nothing (issue 36)', async () => {
    const refused = { message: ACCOUNT_MESSAGES.imageRefused };
    const ours = '/api/files/0b7c2b0e-5a56-4c38-9f1e-1d2a3b4c5d6e';
    const email = newEmail();
    const signUp = await client().post('/api/auth/sign-up/email', {
      email,
      password: 'correct horse 42',
      name: 'Pic',
      image: 'x'.repeat(900_000),
    });
    expect([signUp.status, signUp.body]).toMatchObject([400, refused]);
    expect(await backend.database.db.select().from(user).where(eq(user.email, email))).toEqual([]);

    const browser = client();
    const own = newEmail();
    await browser.signUp(own);
    for (const image of ['x'.repeat(900_000), { toString: 'x' }, 'https://evil.example/a.png', `${ours}/x`, 42]) {
      const update = await browser.post('/api/auth/update-user', { image });
      expect([update.status, update.body]).toMatchObject([400, refused]);
    }
    const imageOf = async () =>
      (await backend.database.db.select({ image: user.image }).from(user).where(eq(user.email, own)))[0]?.image;
    expect(await imageOf()).toBeNull();
    expect((await browser.post('/api/auth/update-user', { image: ours })).status).toBe(200);
    expect(await imageOf()).toBe(ours);
    expect((await browser.post('/api/auth/update-user', { image: null })).status).toBe(200);
    expect(await imageOf()).toBeNull();
  });

  it('refuses an update-user to a name over 100 characters, and changes nothing', async () => {
    const browser = client();
    const email = newEmail();
    await browser.signUp(email);
    const tooLong = await browser.post('/api/auth/update-user', { name: 'n'.repeat(100_000) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toMatchObject(nameTooLong);
    const [row] = await backend.database.db.select({ name: user.name }).from(user).where(eq(user.email, email));
    expect(row?.name).toBe(email.split('@')[0]);
    expect((await browser.post('/api/auth/update-user', { name: 'n'.repeat(100) })).status).toBe(200);
  });
});

describe('the profile belongs to the server', () => {
  it('answers 401 to a visitor and only ever the session user to a user', async () => {
    expect((await client().get('/api/profile')).status).toBe(401);
    const alice = client();
    const bob = client();
    const aliceEmail = newEmail();
    await alice.signUp(aliceEmail);
    await bob.signUp(newEmail());
    const bobId = (await bob.get<{ user: { id: string } }>('/api/auth/get-session')).body.user.id;
    const attempt = await alice.get<Profile>(`/api/profile?userId=${bobId}`);
    expect(attempt.body.email).toBe(aliceEmail);
  });

  it('offers the client no way to write tokens or flags', async () => {
    const browser = client();
    const email = newEmail();
    await browser.signUp(email);
    // The Stripe customer is made after sign-up, by the queue: wait for it so only a write could change the profile.
    const before = await eventually(async () => {
      const profile = (await browser.get<Profile>('/api/profile')).body;
      return profile.stripeCustomerId ? profile : null;
    });

    const attempts = [
      browser.request('PATCH', '/api/profile', { body: { tokens: 9999, emailVerified: true } }),
      browser.request('PUT', '/api/profile', { body: { tokens: 9999 } }),
      browser.post('/api/profile', { tokens: 9999, isDispute: false, isFraudulent: false }),
      browser.post('/api/auth/update-user', { tokens: 9999, emailVerified: true, isFraudulent: true, name: 'x' }),
      browser.post('/api/auth/send-verification-email', { email }),
      browser.post('/api/auth/change-email', { newEmail: newEmail() }),
    ];
    const statuses = (await Promise.all(attempts)).map((r) => r.status);
    expect(statuses.slice(0, 3).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(4)).toEqual([404, 404]);

    const after = (await browser.get<Profile>('/api/profile')).body;
    expect(after).toEqual(before);
    expect(after).toMatchObject({ tokens: 20, emailVerified: false, isDispute: false, isFraudulent: false });
  });

  it('refuses state changes that do not come from our origin', async () => {
    const browser = client();
    await browser.signUp(newEmail());
    const foreign = await browser.request('POST', '/api/profile/verification-email', {
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const authForeign = await browser.request('POST', '/api/auth/sign-out', {
      headers: { origin: 'https://evil.example' },
    });
    expect(authForeign.status).toBe(403);
  });
});

describe('verification mail resend', () => {
  it('refuses a second send within 60 seconds of the last one, whatever the client does', async () => {
    const browser = client();
    const email = newEmail();
    await browser.signUp(email);
    await mailTo(email, /verify/i); // the sign-up mail counts as the last send

    const tooSoon = await browser.post<{ error: string; retryAfterSeconds: number }>('/api/profile/verification-email');
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.retryAfterSeconds).toBeGreaterThan(0);
    expect(tooSoon.body.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(tooSoon.body.error).toMatch(/^Please wait \d+ seconds? before requesting another email\.$/);

    // A minute later (moved back in the database rather than waited for):
    const id = await userIdOf(email);
    await backend.database.db
      .update(profiles)
      .set({ verificationEmailSentAt: sql`now() - interval '61 seconds'` })
      .where(eq(profiles.userId, id));
    const allowed = await browser.post<{ retryAfterSeconds: number }>('/api/profile/verification-email');
    expect(allowed.status).toBe(200);
    expect(allowed.body.retryAfterSeconds).toBe(60);
    const burst = await Promise.all([1, 2, 3].map(() => browser.post('/api/profile/verification-email')));
    expect(burst.map((r) => r.status)).toEqual([429, 429, 429]);
    const mails = (await listOutbox(backend.database, { limit: 200 })).filter((m) => m.to === email);
    expect(mails).toHaveLength(2);
  });

  it('answers 401 to a visitor and 409 to a verified user', async () => {
    expect((await client().post('/api/profile/verification-email')).status).toBe(401);
    const browser = client();
    const email = newEmail();
    await browser.signUp(email);
    await backend.database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
    const response = await browser.post('/api/profile/verification-email');
    expect(response.status).toBe(409);
    expect(response.body).toEqual({ error: 'Your email is already verified.' });
  });
});

describe('rate limits', () => {
  it('stops password guessing from one address and leaves others alone', async () => {
    const email = newEmail();
    await client().signUp(email);
    const attacker = client();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await attacker.signIn(email, `guess ${i} wrong`)).status);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const bystander = newEmail();
    await client().signUp(bystander);
    expect((await client().signIn(bystander)).status).toBe(200);
    // The guessed account itself is paused for every address (sign-in-throttle.test.ts, issue 36).
    expect((await client().signIn(email)).status).toBe(429);
  });

  it('limits sign-ups from one address', async () => {
    const farm = client();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await farm.signUp(newEmail())).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('password reset', () => {
  it('mails a link, sets the new password and ends the old sessions', async () => {
    const email = newEmail();
    const oldSession = client();
    await oldSession.signUp(email, 'old password 123');
    const requester = client();
    const request = await requester.post('/api/auth/request-password-reset', {
      email,
      redirectTo: `${backend.config.appUrl}/reset-password`,
    });
    expect(request.status).toBe(200);
    const mail = await mailTo(email, /reset/i);
    const link = findLinks(mail.text).find((l) => l.includes('/reset-password/'));
    expect(link).toBeDefined();
    const landing = await requester.get(new URL(link as string).pathname + new URL(link as string).search);
    expect(landing.status).toBe(302);
    const target = new URL(landing.headers.get('location') as string, backend.config.appUrl);
    expect(target.pathname).toBe('/reset-password');
    const token = target.searchParams.get('token');
    expect(token).toBeTruthy();

    const reset = await requester.post('/api/auth/reset-password', { token, newPassword: 'new password 456' });
    expect(reset.status).toBe(200);
    expect((await oldSession.get('/api/auth/get-session')).body).toBeNull();
    expect((await client().signIn(email, 'old password 123')).status).toBe(401);
    expect((await client().signIn(email, 'new password 456')).status).toBe(200);
    const reuse = await requester.post('/api/auth/reset-password', { token, newPassword: 'third password 789' });
    expect(reuse.status).toBe(400);
  });

  it('ends the earlier links when a new one is asked for', async () => {
    const email = newEmail();
    await client().signUp(email);
    const requester = client();
    const ask = () =>
      requester.post('/api/auth/request-password-reset', {
        email,
        redirectTo: `${backend.config.appUrl}/reset-password`,
      });
    const tokenIn = (path: string) => path.split('?')[0]?.split('/').pop();
    expect((await ask()).status).toBe(200);
    const older = tokenIn(await linkPath(email, /reset/i, '/reset-password/', 1));
    expect((await ask()).status).toBe(200);
    const newer = tokenIn(await linkPath(email, /reset/i, '/reset-password/', 2));
    expect(newer).not.toBe(older);

    const withOlder = await requester.post('/api/auth/reset-password', { token: older, newPassword: 'older link 123' });
    expect(withOlder.status).toBe(400);
    expect(withOlder.body).toMatchObject({ code: 'INVALID_TOKEN' });
    const withNewer = await requester.post('/api/auth/reset-password', { token: newer, newPassword: 'newer link 456' });
    expect(withNewer.status).toBe(200);
    expect((await client().signIn(email, 'newer link 456')).status).toBe(200);
  });

  it('keeps only a hash of the mailed token in the database', async () => {
    const email = newEmail();
    await client().signUp(email);
    await client().post('/api/auth/request-password-reset', {
      email,
      redirectTo: `${backend.config.appUrl}/reset-password`,
    });
    const token = (await linkPath(email, /reset/i, '/reset-password/')).split('?')[0]?.split('/').pop() as string;
    const rows = await backend.database.db
      .select()
      .from(verification)
      .where(eq(verification.value, await userIdOf(email)));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('answers an unknown address like a known one, and sends nothing', async () => {
    const askReset = (email: string) =>
      client().post('/api/auth/request-password-reset', {
        email,
        redirectTo: `${backend.config.appUrl}/reset-password`,
      });
    const unknown = newEmail();
    const known = newEmail();
    await client().signUp(known);
    const unknownAnswer = await askReset(unknown);
    const knownAnswer = await askReset(known);
    expect(unknownAnswer.status).toBe(200);
    expect([unknownAnswer.status, unknownAnswer.body]).toEqual([knownAnswer.status, knownAnswer.body]);
    // The known address's mail, asked for after, has come: one for the unknown would have come first.
    await mailTo(known, /reset/i);
    const mails = (await listOutbox(backend.database, { limit: 200 })).filter((m) => m.to === unknown);
    expect(mails).toEqual([]);
  });
});

describe('GET /api/config', () => {
  it('says Google is off and where development mail can be read', async () => {
    const response = await client().get('/api/config');
    expect(response.body).toEqual({ googleSignIn: false, devMailUrl: '/dev/mail', supportEmail: null });
  });
});
