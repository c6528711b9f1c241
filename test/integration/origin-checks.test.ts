// Every state-changing route refuses a request that does not come from our own pages (a foreign or
// missing Origin) and changes nothing: no job, no charge, no payment, no session change.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PACKAGES } from '../../src/contract/packages';
import { TOOLS } from '../../src/contract/tools';
import { jobs, payments } from '../../src/server/db/schema';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { tokensOf, verifiedUser } from '../support/tool-fixtures';

describe('Origin checks', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  const FOREIGN = [{ origin: 'https://evil.example' }, { origin: '' }, { origin: 'null' }];

  it('refuse every tool call, purchase and account change from elsewhere, changing nothing', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const session = await client.post<{ id: string; url: string }>('/api/create-checkout-session', {
      priceId: TOKEN_PACKAGES[0]?.id,
    });
    expect(session.status).toBe(200);
    const routes = [
      ...TOOLS.map((tool) => `/api${tool.apiPath}`),
      '/api/create-checkout-session',
      '/api/create-stripe-customer',
      '/api/profile/verification-email',
      `${session.body.url}/pay`,
      `${session.body.url}/cancel`,
    ];
    for (const path of routes) {
      for (const headers of FOREIGN) {
        const response = await client.request('POST', path, {
          body: { prompt: 'x', priceId: TOKEN_PACKAGES[0]?.id },
          headers,
        });
        expect(response.status, `${path} from ${JSON.stringify(headers.origin)}`).toBe(403);
      }
    }
    expect(await tokensOf(client)).toBe(20);
    expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, id))).toEqual([]);
    const rows = await backend.database.db.select().from(payments).where(eq(payments.userId, id));
    expect(rows.map((row) => row.status)).toEqual(['open']);
  });

  it("refuse better-auth's state changes from elsewhere: the session stays", async () => {
    const { client } = await verifiedUser(backend, 20);
    for (const path of ['/api/auth/sign-out', '/api/auth/revoke-sessions']) {
      const response = await client.request('POST', path, { headers: { origin: 'https://evil.example' } });
      expect(response.status, path).toBe(403);
    }
    expect((await client.get('/api/profile')).status).toBe(200);
  });
});
