import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_KEY_MESSAGES } from '../../../contract/api-key-rules';
import type { ApiKeySummary, CreatedApiKey } from '../../../contract/api-keys';
import { renderApp } from '../../app/test-utils';
import { type FakeRoutes, installFakeApi, signedInRoutes } from '../../test-support/fake-api';
import { COPY_TEXT } from './copy-text';
import { DEVELOPER_TEXT } from './DeveloperCard';
import { WEBHOOK_SECRET_TEXT } from './WebhookSecretPanel';

afterEach(() => vi.unstubAllGlobals());

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OLDER: ApiKeySummary = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Shop backend',
  prefix: 'pp_AbCdEfGhI',
  createdAt: '2026-11-01T09:30:00.000Z',
  lastUsedAt: '2026-11-20T14:05:00.000Z',
};
const NEWER: ApiKeySummary = {
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Laptop',
  prefix: 'pp_ZyXwVuTsR',
  createdAt: '2026-11-25T10:00:00.000Z',
  lastUsedAt: null,
};
const CREATED: CreatedApiKey = {
  id: '33333333-3333-4333-8333-333333333333',
  name: 'CI',
  key: 'pp_q8X0bZ3l8pWm4eC6v2Rj1sKk9NfYtHuA7dGiLoPx5Ec',
  createdAt: '2026-11-28T06:00:00.000Z',
};

function clipboard(fails = false) {
  const writeText = vi.fn(async (_text: string) => {
    if (fails) throw new Error('denied');
  });
  vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
  return writeText;
}

async function openDeveloper(routes: FakeRoutes = {}) {
  const api = installFakeApi({
    ...signedInRoutes(),
    'GET /api/keys': { body: { keys: [] } },
    'GET /api/webhook-secret': { body: { secret: SECRET } },
    ...routes,
  });
  const view = renderApp('/user-settings');
  const card = await screen.findByRole('region', { name: DEVELOPER_TEXT.title });
  return { api, card, ...view };
}

describe('Developer, in User Settings: API keys', () => {
  it('says there are no keys yet, and links to the API docs', async () => {
    const { card } = await openDeveloper();
    expect(await within(card).findByText(DEVELOPER_TEXT.empty)).toBeTruthy();
    expect(within(card).getByRole('link', { name: DEVELOPER_TEXT.docs }).getAttribute('href')).toBe('/developers');
  });

  it('lists keys by name and first characters, with when they were made and last used', async () => {
    const { card } = await openDeveloper({ 'GET /api/keys': { body: { keys: [NEWER, OLDER] } } });
    const list = await within(card).findByRole('list', { name: DEVELOPER_TEXT.keysTitle });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Laptop', 'Shop backend']);
    const [laptop, shop] = items as [HTMLElement, HTMLElement];
    expect(within(laptop).getByText('pp_ZyXwVuTsR…')).toBeTruthy();
    expect(within(laptop).getByText(DEVELOPER_TEXT.neverUsed)).toBeTruthy();
    expect(within(laptop).getByText(/^Created Nov 25, 2026/)).toBeTruthy();
    expect(within(shop).getByText(/^Last used Nov 20, 2026/)).toBeTruthy();
    expect(within(shop).getByRole('button', { name: DEVELOPER_TEXT.revoke })).toBeTruthy();
  });

  it('creates a named key and shows it once, in full, with Copy; Done hides it for good', async () => {
    const writeText = clipboard();
    const { api, card } = await openDeveloper({
      'GET /api/keys': [
        { body: { keys: [] } },
        { body: { keys: [{ ...CREATED, prefix: 'pp_q8X0bZ3l8', lastUsedAt: null }] } },
      ],
      'POST /api/keys': { status: 201, body: CREATED },
    });
    fireEvent.change(within(card).getByLabelText(DEVELOPER_TEXT.nameLabel), { target: { value: '  CI ' } });
    fireEvent.click(within(card).getByRole('button', { name: DEVELOPER_TEXT.create }));
    const panel = await within(card).findByTestId('new-api-key');
    expect(api.callsTo('POST /api/keys')[0]?.body).toEqual({ name: 'CI' });
    const field = within(panel).getByLabelText(/Your new key/) as HTMLInputElement;
    expect(field.value).toBe(CREATED.key);
    expect(field.readOnly).toBe(true);
    expect(within(panel).getByText(DEVELOPER_TEXT.shownOnce)).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: DEVELOPER_TEXT.copy }));
    expect(await within(panel).findByText(COPY_TEXT.copied)).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(CREATED.key);
    // The list shows it by its first characters.
    expect(await within(card).findByText('pp_q8X0bZ3l8…')).toBeTruthy();
    expect((within(card).getByLabelText(DEVELOPER_TEXT.nameLabel) as HTMLInputElement).value).toBe('');

    fireEvent.click(within(panel).getByRole('button', { name: DEVELOPER_TEXT.done }));
    expect(within(card).queryByTestId('new-api-key')).toBeNull();
    expect(within(card).queryByDisplayValue(CREATED.key)).toBeNull();
  });

  it('says when copying fails', async () => {
    clipboard(true);
    const { card } = await openDeveloper({ 'POST /api/keys': { status: 201, body: CREATED } });
    fireEvent.change(within(card).getByLabelText(DEVELOPER_TEXT.nameLabel), { target: { value: 'CI' } });
    fireEvent.click(within(card).getByRole('button', { name: DEVELOPER_TEXT.create }));
    const panel = await within(card).findByTestId('new-api-key');
    fireEvent.click(within(panel).getByRole('button', { name: DEVELOPER_TEXT.copy }));
    expect(await within(panel).findByText(COPY_TEXT.copyFailed)).toBeTruthy();
  });

  it('refuses an empty or control-character name before asking the server', async () => {
    const { api, card } = await openDeveloper();
    fireEvent.click(within(card).getByRole('button', { name: DEVELOPER_TEXT.create }));
    expect(await within(card).findByText(API_KEY_MESSAGES.nameEmpty)).toBeTruthy();
    fireEvent.change(within(card).getByLabelText(DEVELOPER_TEXT.nameLabel), { target: { value: 'a\tb' } });
    fireEvent.click(within(card).getByRole('button', { name: DEVELOPER_TEXT.create }));
    expect(await within(card).findByText(API_KEY_MESSAGES.nameControl)).toBeTruthy();
    expect(api.callsTo('POST /api/keys')).toHaveLength(0);
  });

  it('shows the server’s sentence when it refuses (unverified, too many), and ours when the connection fails', async () => {
    const { card } = await openDeveloper({
      'POST /api/keys': [
        { status: 403, body: { error: API_KEY_MESSAGES.unverified } },
        { status: 409, body: { error: API_KEY_MESSAGES.tooMany } },
        'network-error',
      ],
    });
    const name = within(card).getByLabelText(DEVELOPER_TEXT.nameLabel);
    const create = within(card).getByRole('button', { name: DEVELOPER_TEXT.create });
    fireEvent.change(name, { target: { value: 'CI' } });
    fireEvent.click(create);
    expect(await within(card).findByText(API_KEY_MESSAGES.unverified)).toBeTruthy();
    fireEvent.click(create);
    expect(await within(card).findByText(API_KEY_MESSAGES.tooMany)).toBeTruthy();
    fireEvent.click(create);
    expect(await within(card).findByText(DEVELOPER_TEXT.createFailed)).toBeTruthy();
    expect(within(card).queryByTestId('new-api-key')).toBeNull();
  });

  it('revokes a key only after a confirmation in place, or keeps it', async () => {
    const { api, card } = await openDeveloper({
      'GET /api/keys': [{ body: { keys: [NEWER, OLDER] } }, { body: { keys: [NEWER] } }],
      [`DELETE /api/keys/${OLDER.id}`]: { status: 204 },
    });
    const shop = await within(card).findByRole('listitem', { name: 'Shop backend' });
    fireEvent.click(within(shop).getByRole('button', { name: DEVELOPER_TEXT.revoke }));
    expect(within(shop).getByText(DEVELOPER_TEXT.revokeWarning('Shop backend'))).toBeTruthy();
    fireEvent.click(within(shop).getByRole('button', { name: DEVELOPER_TEXT.keep }));
    expect(within(shop).queryByText(DEVELOPER_TEXT.revokeWarning('Shop backend'))).toBeNull();
    expect(api.callsTo(`DELETE /api/keys/${OLDER.id}`)).toHaveLength(0);

    fireEvent.click(within(shop).getByRole('button', { name: DEVELOPER_TEXT.revoke }));
    fireEvent.click(within(shop).getByRole('button', { name: DEVELOPER_TEXT.confirmRevoke }));
    expect(await within(card).findByText(DEVELOPER_TEXT.revoked('Shop backend'))).toBeTruthy();
    await waitFor(() => expect(within(card).queryByRole('listitem', { name: 'Shop backend' })).toBeNull());
    expect(within(card).getByRole('listitem', { name: 'Laptop' })).toBeTruthy();
    expect(api.callsTo(`DELETE /api/keys/${OLDER.id}`)).toHaveLength(1);
  });

  it('keeps the key and says why when revoking fails', async () => {
    const { card } = await openDeveloper({
      'GET /api/keys': { body: { keys: [OLDER] } },
      [`DELETE /api/keys/${OLDER.id}`]: 'network-error',
    });
    const shop = await within(card).findByRole('listitem', { name: 'Shop backend' });
    fireEvent.click(within(shop).getByRole('button', { name: DEVELOPER_TEXT.revoke }));
    fireEvent.click(within(shop).getByRole('button', { name: DEVELOPER_TEXT.confirmRevoke }));
    expect(await within(shop).findByText(DEVELOPER_TEXT.revokeFailed)).toBeTruthy();
    expect(within(card).getByRole('listitem', { name: 'Shop backend' })).toBeTruthy();
  });

  it('says when the keys cannot be loaded', async () => {
    const { card } = await openDeveloper({ 'GET /api/keys': { status: 500, body: { error: 'boom' } } });
    expect(await within(card).findByText(DEVELOPER_TEXT.loadFailed)).toBeTruthy();
  });
});

describe('Developer, in User Settings: the webhook signing secret', () => {
  it('shows the secret masked until Show, and copies it', async () => {
    const writeText = clipboard();
    const { card } = await openDeveloper();
    const field = (await within(card).findByLabelText(WEBHOOK_SECRET_TEXT.label)) as HTMLInputElement;
    expect(field.value).toMatch(/^whsec_•+$/);
    expect(field.value).not.toContain(SECRET.slice(6));
    fireEvent.click(within(card).getByRole('button', { name: WEBHOOK_SECRET_TEXT.show }));
    expect(field.value).toBe(SECRET);
    fireEvent.click(within(card).getByRole('button', { name: WEBHOOK_SECRET_TEXT.hide }));
    expect(field.value).toMatch(/^whsec_•+$/);
    const group = within(card).getByRole('region', { name: WEBHOOK_SECRET_TEXT.title });
    fireEvent.click(within(group).getByRole('button', { name: WEBHOOK_SECRET_TEXT.copy }));
    expect(await within(group).findByText(COPY_TEXT.copied)).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(SECRET);
  });

  it('rotates the secret only after a confirmation in place, and shows the new one', async () => {
    const rotated = 'whsec_NEWsecretNEWsecretNEWsecretNEW0';
    const { api, card } = await openDeveloper({ 'POST /api/webhook-secret/rotate': { body: { secret: rotated } } });
    const field = (await within(card).findByLabelText(WEBHOOK_SECRET_TEXT.label)) as HTMLInputElement;
    fireEvent.click(within(card).getByRole('button', { name: WEBHOOK_SECRET_TEXT.rotate }));
    expect(within(card).getByText(WEBHOOK_SECRET_TEXT.rotateWarning)).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: WEBHOOK_SECRET_TEXT.keep }));
    expect(api.callsTo('POST /api/webhook-secret/rotate')).toHaveLength(0);

    fireEvent.click(within(card).getByRole('button', { name: WEBHOOK_SECRET_TEXT.rotate }));
    fireEvent.click(within(card).getByRole('button', { name: WEBHOOK_SECRET_TEXT.confirmRotate }));
    expect(await within(card).findByText(WEBHOOK_SECRET_TEXT.rotated)).toBeTruthy();
    expect(api.callsTo('POST /api/webhook-secret/rotate')).toHaveLength(1);
    fireEvent.click(within(card).getByRole('button', { name: WEBHOOK_SECRET_TEXT.show }));
    expect(field.value).toBe(rotated);
  });

  it('shows the server’s sentence when rotating fails, and keeps the old secret', async () => {
    const { card } = await openDeveloper({
      'POST /api/webhook-secret/rotate': {
        status: 429,
        body: { error: 'You rotated it a moment ago. Try again in a minute.' },
      },
    });
    const field = (await within(card).findByLabelText(WEBHOOK_SECRET_TEXT.label)) as HTMLInputElement;
    fireEvent.click(within(card).getByRole('button', { name: WEBHOOK_SECRET_TEXT.rotate }));
    fireEvent.click(within(card).getByRole('button', { name: WEBHOOK_SECRET_TEXT.confirmRotate }));
    expect(await within(card).findByText('You rotated it a moment ago. Try again in a minute.')).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: WEBHOOK_SECRET_TEXT.show }));
    expect(field.value).toBe(SECRET);
  });

  it('says when the secret cannot be loaded', async () => {
    const { card } = await openDeveloper({ 'GET /api/webhook-secret': 'network-error' });
    expect(await within(card).findByText(WEBHOOK_SECRET_TEXT.loadFailed)).toBeTruthy();
  });
});
