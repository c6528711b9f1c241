// The support console's pages (issue 57) against a fake /api/admin: what an operator sees and sends,
// and the not-found screen for anyone the API hides the console from.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  AdminAccountDetail,
  AdminAuditEntry,
  AdminJob,
  AdminOverview,
  AdminOverviewBucket,
  AdminOverviewWindow,
} from '../../../contract/admin';
import { ADMIN_MESSAGES } from '../../../contract/admin-rules';
import { renderApp, setViewportWidth } from '../../app/test-utils';
import { type FakeRoutes, installFakeApi, signedInRoutes } from '../../test-support/fake-api';

const ACCOUNT_ID = 'user-42';
const API = '/api/admin';
/** What the API answers anyone but an operator (server/responses/no-api-route.ts). */
const hidden = (path: string) => ({ status: 404, body: { error: `No API route for GET ${path}` } });

const page = <T,>(items: T[], total = items.length, at = 1) => ({ items, page: at, pageSize: 25, total });

const auditEntry = (overrides: Partial<AdminAuditEntry> = {}): AdminAuditEntry => ({
  id: 7,
  at: '2026-03-14T15:00:00.000Z',
  operator: { id: 'op-1', name: 'ops@example.com' },
  action: 'tokens',
  accountId: ACCOUNT_ID,
  accountEmail: 'ada@example.com',
  subject: null,
  reason: 'Paid but credits not received',
  before: { tokens: 20 },
  after: { tokens: 120 },
  ...overrides,
});

const job = (overrides: Partial<AdminJob> = {}): AdminJob => ({
  id: '11111111-1111-4111-8111-111111111111',
  tool: 'image-upscaler',
  provider: 'local',
  status: 'succeeded',
  error: null,
  cost: 1,
  charged: 1,
  refunded: 0,
  batchId: null,
  createdAt: '2026-03-14T14:00:00.000Z',
  finishedAt: '2026-03-14T14:00:05.000Z',
  ...overrides,
});

function detail(overrides: Partial<AdminAccountDetail['account']> = {}, jobs: AdminJob[] = []): AdminAccountDetail {
  return {
    account: {
      id: ACCOUNT_ID,
      email: 'ada@example.com',
      name: 'Ada',
      emailVerified: true,
      createdAt: '2026-03-01T10:00:00.000Z',
      tokens: 20,
      isDispute: false,
      isFraudulent: false,
      stripeCustomerId: 'cus_123',
      ...overrides,
    },
    ledgerMatchesBalance: true,
    payments: [],
    ledger: page([
      { id: 1, delta: 20, reason: 'signup', reference: ACCOUNT_ID, note: null, createdAt: '2026-03-01T10:00:00.000Z' },
    ]),
    jobs: page(jobs),
    apiKeys: [],
    sessions: [],
    failedWebhookDeliveries: [],
    audit: page([]),
  };
}

const bucket = (start: string, signUps: number): AdminOverviewBucket => ({
  start,
  signUps,
  toolCalls: 0,
  failures: 0,
  tokensSold: 0,
  tokensSpent: 0,
  revenueCents: 0,
});

const totals = (signUps: number, overrides: Partial<AdminOverviewWindow> = {}): AdminOverviewWindow => ({
  signUps,
  toolCalls: [],
  failures: [],
  refunds: { count: 0, tokens: 0 },
  tokensSold: 0,
  tokensSpent: 0,
  revenue: [],
  ...overrides,
});

const OVERVIEW: AdminOverview = {
  at: '2026-03-14T15:00:00.000Z',
  last24Hours: totals(3, { toolCalls: [{ tool: 'image-upscaler', provider: 'local', count: 5 }] }),
  last30Days: totals(41, {
    toolCalls: [{ tool: 'image-upscaler', provider: 'local', count: 60 }],
    failures: [{ reason: 'The model timed out.', count: 2 }],
    revenue: [{ packageId: 'price_local_500', packageName: 'Starter', payments: 2, amountCents: 1000 }],
  }),
  hourly: [bucket('2026-03-14T13:00:00.000Z', 1), bucket('2026-03-14T14:00:00.000Z', 2)],
  daily: [bucket('2026-03-13T00:00:00.000Z', 40), bucket('2026-03-14T00:00:00.000Z', 1)],
  queue: { waiting: 2, running: 1, oldestWaitingSeconds: 12 },
  workersAlive: 1,
  webhookDeliveries: { retrying: 0, failedLast30Days: 0 },
  alerts: {
    paidNotCredited: [
      {
        sessionId: 'cs_stuck',
        userId: ACCOUNT_ID,
        amountCents: 500,
        tokens: 500,
        status: 'paid',
        createdAt: '2026-03-14T12:00:00.000Z',
      },
    ],
    refundFailed: [],
  },
};

/** A signed-in operator's app, with the console's answers added. */
function operator(routes: FakeRoutes) {
  return installFakeApi({
    ...signedInRoutes(),
    [`GET ${API}/me`]: { body: { id: 'op-1', name: 'ops@example.com' } },
    ...routes,
  });
}

async function openAccount(routes: FakeRoutes = {}, account = detail()) {
  const api = operator({ [`GET ${API}/accounts/${ACCOUNT_ID}`]: { body: account }, ...routes });
  const view = renderApp(`/admin/accounts/${ACCOUNT_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'ada@example.com' });
  return { api, ...view };
}

const facts = () => within(screen.getByTestId('account-facts'));
const factValue = (term: string) => facts().getByText(term).nextElementSibling?.textContent;

afterEach(() => {
  vi.unstubAllGlobals();
  setViewportWidth(1280);
});

describe('the support console', () => {
  it('shows the not-found screen at every console page when the API hides the console (not an operator)', async () => {
    for (const [path, read] of [
      ['/admin', '/overview'],
      [`/admin/accounts/${ACCOUNT_ID}`, `/accounts/${ACCOUNT_ID}`],
      ['/admin/audit', '/audit'],
    ] as const) {
      installFakeApi({
        ...signedInRoutes(),
        [`GET ${API}/me`]: hidden(`${API}/me`),
        [`GET ${API}${read}`]: hidden(`${API}${read}`),
        [`GET ${API}/accounts`]: hidden(`${API}/accounts`),
      });
      const { unmount } = renderApp(path);
      await screen.findByText(/couldn’t find the page/);
      expect(screen.getByTestId('error-detail').textContent).toBe('404 Not Found');
      expect(screen.queryByRole('navigation', { name: 'Support console' })).toBeNull();
      unmount();
      vi.unstubAllGlobals();
    }
  });

  it('says an unknown account id on the page, not with the not-found screen', async () => {
    operator({ [`GET ${API}/accounts/nobody`]: { status: 404, body: { error: ADMIN_MESSAGES.accountNotFound } } });
    renderApp('/admin/accounts/nobody');
    await screen.findByText(ADMIN_MESSAGES.accountNotFound);
    expect(screen.getByRole('navigation', { name: 'Support console' })).toBeTruthy();
    expect(screen.queryByTestId('error-detail')).toBeNull();
  });

  it('finds an account by what is typed in the search box and links to its page', async () => {
    const api = operator({
      [`GET ${API}/overview`]: { body: OVERVIEW },
      [`GET ${API}/accounts`]: (request) => ({
        body: {
          accounts: new URLSearchParams(request.search).get('q') === 'cus_123' ? [detail().account] : [],
        },
      }),
      [`GET ${API}/accounts/${ACCOUNT_ID}`]: { body: detail() },
    });
    const { router } = renderApp('/admin');
    await screen.findByRole('heading', { level: 2, name: 'Newest accounts' });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Find an account' }), { target: { value: ' cus_123 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Find' }));
    await screen.findByRole('heading', { level: 2, name: 'Accounts matching “cus_123”' });
    expect(api.callsTo(`GET ${API}/accounts`).at(-1)?.search).toBe('?q=cus_123');
    fireEvent.click(await screen.findByRole('link', { name: 'ada@example.com' }));
    await screen.findByRole('heading', { level: 1, name: 'ada@example.com' });
    expect(router.state.location.pathname).toBe(`/admin/accounts/${ACCOUNT_ID}`);
  });

  it('shows the overview for the last 24 hours or 30 days, its bars read out with their numbers', async () => {
    operator({ [`GET ${API}/overview`]: { body: OVERVIEW }, [`GET ${API}/accounts`]: { body: { accounts: [] } } });
    renderApp('/admin');
    const signUps = await screen.findByRole('list', { name: 'Sign-ups by hour' });
    expect(
      within(signUps)
        .getAllByRole('listitem')
        .map((bar) => bar.textContent?.replace(/^.*: /, '')),
    ).toEqual(['1', '2']);
    const activity = screen.getByRole('region', { name: 'Activity' });
    const stat = (label: string) =>
      within(activity).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(stat('Sign-ups')).toBe('3');
    expect(screen.getByRole('button', { name: 'Last 24 hours' }).getAttribute('aria-pressed')).toBe('true');

    fireEvent.click(screen.getByRole('button', { name: 'Last 30 days' }));
    expect(stat('Sign-ups')).toBe('41');
    const byDay = screen.getByRole('list', { name: 'Sign-ups by day' });
    expect(within(byDay).getAllByRole('listitem')[0]?.textContent).toBe('Mar 13: 40');
    const failures = screen.getByRole('table', { name: 'Failures by reason' });
    expect(within(failures).getByRole('rowheader').textContent).toBe('The model timed out.');
    expect(within(failures).getByRole('cell').textContent).toBe('2');
    expect(within(screen.getByRole('table', { name: 'Revenue by package' })).getByRole('cell').textContent).toBe(
      '$10.00',
    );
    // Now: the queue, and the payment whose tokens never arrived, linked to its account.
    const now = screen.getByRole('region', { name: 'Now' });
    expect(within(now).getByText('Jobs waiting').nextElementSibling?.textContent).toBe('2');
    const alerts = screen.getByRole('region', { name: 'Alerts (1)' });
    expect(within(alerts).getByRole('link').getAttribute('href')).toBe(`/admin/accounts/${ACCOUNT_ID}`);
  });

  it('grants tokens only with a reason, then shows the account as the server has it now', async () => {
    const { api } = await openAccount({
      [`POST ${API}/accounts/${ACCOUNT_ID}/tokens`]: { body: { balance: 120, audit: auditEntry() } },
    });
    expect(factValue('Balance')).toBe('20 tokens');
    fireEvent.click(screen.getByRole('button', { name: 'Grant or deduct tokens' }));
    const form = screen.getByRole('form', { name: 'Grant or deduct tokens' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Tokens' }), { target: { value: '100' } });
    const grant = within(form).getByRole('button', { name: 'Grant tokens' }) as HTMLButtonElement;
    expect(grant.disabled).toBe(true);
    expect(within(form).getByText(ADMIN_MESSAGES.reasonRequired)).toBeTruthy();

    api.set({
      [`GET ${API}/accounts/${ACCOUNT_ID}`]: {
        body: { ...detail({ tokens: 120 }), audit: page([auditEntry()]) },
      },
    });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Reason' }), {
      target: { value: ' Paid but credits not received ' },
    });
    expect(grant.disabled).toBe(false);
    fireEvent.click(grant);
    await screen.findByText('Granted 100 tokens.');
    expect(api.callsTo(`POST ${API}/accounts/${ACCOUNT_ID}/tokens`).map((call) => call.body)).toEqual([
      { delta: 100, reason: 'Paid but credits not received' },
    ]);
    await waitFor(() => expect(factValue('Balance')).toBe('120 tokens'));
    expect(screen.queryByRole('form', { name: 'Grant or deduct tokens' })).toBeNull();
    const audit = within(screen.getByRole('region', { name: 'Audit entries' }));
    expect(audit.getByText('Paid but credits not received')).toBeTruthy();
  });

  it('shows the server’s sentence when it refuses, and keeps the form as it was', async () => {
    const refusal = ADMIN_MESSAGES.belowZero(20);
    const { api } = await openAccount({
      [`POST ${API}/accounts/${ACCOUNT_ID}/tokens`]: { status: 400, body: { error: refusal } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Grant or deduct tokens' }));
    const form = screen.getByRole('form', { name: 'Grant or deduct tokens' });
    fireEvent.click(within(form).getByRole('radio', { name: 'Deduct' }));
    fireEvent.change(within(form).getByRole('textbox', { name: 'Tokens' }), { target: { value: '50' } });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Reason' }), { target: { value: 'Chargeback' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Deduct tokens' }));
    await within(form).findByText(refusal);
    expect(api.callsTo(`POST ${API}/accounts/${ACCOUNT_ID}/tokens`)[0]?.body).toEqual({
      delta: -50,
      reason: 'Chargeback',
    });
    expect((within(form).getByRole('textbox', { name: 'Reason' }) as HTMLTextAreaElement).value).toBe('Chargeback');
    expect(api.callsTo(`GET ${API}/accounts/${ACCOUNT_ID}`)).toHaveLength(1);
  });

  it('offers Refund on a charged job not refunded yet, once', async () => {
    const paid = job();
    const failedAndRefunded = job({
      id: '22222222-2222-4222-8222-222222222222',
      status: 'failed',
      error: 'The model timed out.',
      refunded: 1,
    });
    const preview = job({ id: '33333333-3333-4333-8333-333333333333', charged: 0, cost: 0, provider: 'demo' });
    const { api } = await openAccount(
      { [`POST ${API}/jobs/${paid.id}/refund`]: { body: { refunded: 1, balance: 21, audit: auditEntry() } } },
      detail({}, [paid, failedAndRefunded, preview]),
    );
    const jobs = within(screen.getByRole('region', { name: 'Jobs' }));
    expect(jobs.getAllByRole('button', { name: /^Refund the Image Upscaler job/ })).toHaveLength(1);
    expect(jobs.getByText('The model timed out.')).toBeTruthy();

    api.set({
      [`GET ${API}/accounts/${ACCOUNT_ID}`]: {
        body: detail({ tokens: 21 }, [{ ...paid, refunded: 1 }, failedAndRefunded, preview]),
      },
    });
    fireEvent.click(jobs.getByRole('button', { name: /^Refund the Image Upscaler job/ }));
    const form = screen.getByRole('form', { name: /^Refund 1 tokens for Image Upscaler/ });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Reason' }), { target: { value: 'Blurry result' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Refund job' }));
    await screen.findByText('Refunded the Image Upscaler job: 1 tokens.');
    expect(api.callsTo(`POST ${API}/jobs/${paid.id}/refund`).map((call) => call.body)).toEqual([
      { reason: 'Blurry result' },
    ]);
    await waitFor(() => expect(jobs.queryAllByRole('button', { name: /^Refund the/ })).toHaveLength(0));
  });

  it('sets and clears the fraud flag with a reason', async () => {
    const { api } = await openAccount({
      [`POST ${API}/accounts/${ACCOUNT_ID}/flags`]: {
        body: { isDispute: false, isFraudulent: true, audit: auditEntry({ action: 'flags' }) },
      },
    });
    api.set({ [`GET ${API}/accounts/${ACCOUNT_ID}`]: { body: detail({ isFraudulent: true }) } });
    fireEvent.click(screen.getByRole('button', { name: 'Set fraud flag' }));
    const form = screen.getByRole('form', { name: 'Set the fraud flag' });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Reason' }), { target: { value: 'Stolen card' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Set fraud flag' }));
    await screen.findByText('The fraud flag is set.');
    await waitFor(() => expect(factValue('Fraud flag')).toBe('Yes'));
    expect(api.callsTo(`POST ${API}/accounts/${ACCOUNT_ID}/flags`)[0]?.body).toEqual({
      isFraudulent: true,
      reason: 'Stolen card',
    });
    expect(screen.getByRole('button', { name: 'Clear fraud flag' })).toBeTruthy();
  });

  it('opens another action’s form empty: a reason typed for one action never goes with another', async () => {
    const { api } = await openAccount({
      [`POST ${API}/accounts/${ACCOUNT_ID}/sign-out`]: { body: { sessions: 1, audit: auditEntry() } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Set fraud flag' }));
    const flagForm = screen.getByRole('form', { name: 'Set the fraud flag' });
    fireEvent.change(within(flagForm).getByRole('textbox', { name: 'Reason' }), { target: { value: 'Stolen card' } });

    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    const signOut = screen.getByRole('form', { name: 'Sign this account out everywhere' });
    const reason = within(signOut).getByRole('textbox', { name: 'Reason' }) as HTMLTextAreaElement;
    expect(reason.value).toBe('');
    expect(document.activeElement).toBe(reason);
    expect((within(signOut).getByRole('button', { name: 'Sign out everywhere' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(api.callsTo(`POST ${API}/accounts/${ACCOUNT_ID}/sign-out`)).toHaveLength(0);
  });

  it('resends the verification mail only to an unverified account, and says the cooldown', async () => {
    const cooldown = ADMIN_MESSAGES.mailCooldown(42);
    const { api } = await openAccount(
      { [`POST ${API}/accounts/${ACCOUNT_ID}/verification-mail`]: { status: 429, body: { error: cooldown } } },
      detail({ emailVerified: false }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Resend verification mail' }));
    const form = screen.getByRole('form', { name: /^Send the verification mail/ });
    fireEvent.change(within(form).getByRole('textbox', { name: 'Reason' }), { target: { value: 'Lost the mail' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send verification mail' }));
    await within(form).findByText(cooldown);
    expect(api.callsTo(`POST ${API}/accounts/${ACCOUNT_ID}/verification-mail`)).toHaveLength(1);
  });

  it('reads the next page of the ledger on demand', async () => {
    const first = detail();
    first.ledger = page(first.ledger.items, 30);
    const { api } = await openAccount(
      {
        [`GET ${API}/accounts/${ACCOUNT_ID}/ledger`]: {
          body: page(
            [
              {
                id: 0,
                delta: -1,
                reason: 'job',
                reference: 'job-0',
                note: null,
                createdAt: '2026-02-01T10:00:00.000Z',
              },
            ],
            30,
            2,
          ),
        },
      },
      first,
    );
    const ledger = within(screen.getByRole('region', { name: 'Ledger' }));
    expect(ledger.getByText('Page 1 of 2')).toBeTruthy();
    fireEvent.click(ledger.getByRole('button', { name: 'Older' }));
    await ledger.findByText('job-0');
    expect(api.callsTo(`GET ${API}/accounts/${ACCOUNT_ID}/ledger`)[0]?.search).toBe('?page=2');
    expect(ledger.getByText('Page 2 of 2')).toBeTruthy();
  });

  it('lists the audit log with who, what, on whom and why', async () => {
    operator({
      [`GET ${API}/audit`]: {
        body: page([auditEntry({ action: 'refund', subject: 'job-9', reason: 'Blurry result' })], 1),
      },
    });
    renderApp('/admin/audit');
    const [row] = await screen.findAllByTestId('audit-entry');
    const cells = within(row as HTMLElement);
    expect(cells.getByText('ops@example.com')).toBeTruthy();
    expect(cells.getByText('Refund')).toBeTruthy();
    expect(cells.getByRole('link', { name: 'ada@example.com' }).getAttribute('href')).toBe(
      `/admin/accounts/${ACCOUNT_ID}`,
    );
    expect(cells.getByText('Blurry result')).toBeTruthy();
    expect(cells.getByText('tokens 20')).toBeTruthy();
  });
});
