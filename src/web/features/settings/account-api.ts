// The account-settings calls: with the settings page's chunk, not with every page's session code.
import { ACCOUNT_API, type AccountDetails } from '../../../contract/accounts';
import { getJson, postJson } from '../../lib/api';

/** better-auth's own routes for a name and a password change. */
const SETTINGS_AUTH_API = {
  updateUser: '/api/auth/update-user',
  changePassword: '/api/auth/change-password',
} as const;

/** User Settings: the account's name, email and sign-in methods. */
export const getAccountDetails = () => getJson<AccountDetails>(ACCOUNT_API.account);

export const updateName = (name: string) => postJson<unknown>(SETTINGS_AUTH_API.updateUser, { name });

/** The server ends the other sessions whatever is asked (auth/request-rules.ts); this browser stays in. */
export const changePassword = (currentPassword: string, newPassword: string) =>
  postJson<unknown>(SETTINGS_AUTH_API.changePassword, { currentPassword, newPassword, revokeOtherSessions: true });

/** A first password, for an account that signs in with Google only. */
export const setFirstPassword = (newPassword: string) =>
  postJson<{ error?: string; reauth?: string }>(ACCOUNT_API.accountPassword, { newPassword });

/** A link to `newEmail`; the address changes once it is opened. */
export const requestEmailChange = (newEmail: string, password?: string) =>
  postJson<{ message?: string; error?: string; reauth?: string }>(ACCOUNT_API.accountEmail, {
    newEmail,
    ...(password ? { password } : {}),
  });
