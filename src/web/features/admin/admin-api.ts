// The console's calls to /api/admin (server/admin/routes.ts; shapes in contract/admin.ts, imported
// as types only: the pages carry no zod). Every answer but a success comes back as its sentence.
import type {
  AdminAccountDetail,
  AdminAccountList,
  AdminAuditPage,
  AdminFlagsRequest,
  AdminJobPage,
  AdminLedgerPage,
  AdminOperator,
  AdminOverview,
} from '../../../contract/admin';
import { ADMIN_API_BASE, ADMIN_MESSAGES } from '../../../contract/admin-rules';
import { errorMessage, getJson, postJson } from '../../lib/api';

export type AdminRead<T> =
  | { ok: true; data: T }
  /** The console is hidden from this visitor (the API's 404 to anyone but an operator). */
  | { ok: false; hidden: true }
  | { ok: false; hidden: false; error: string };

/** 404s an operator gets for an id that names nothing: said on the page, not the not-found screen. */
const OPERATOR_NOT_FOUND: readonly string[] = [
  ADMIN_MESSAGES.accountNotFound,
  ADMIN_MESSAGES.jobNotFound,
  ADMIN_MESSAGES.keyNotFound,
];

const FAILED = 'The console could not reach the server. Check your connection and try again.';

/** GETs `path` under /api/admin. */
export async function adminGet<T>(path: string): Promise<AdminRead<T>> {
  try {
    const answer = await getJson<T>(`${ADMIN_API_BASE}${path}`);
    if (answer.ok && answer.data) return { ok: true, data: answer.data };
    const error = errorMessage(answer.data);
    if (answer.status === 404 && !OPERATOR_NOT_FOUND.includes(error ?? '')) return { ok: false, hidden: true };
    return { ok: false, hidden: false, error: error ?? `The server answered ${answer.status}.` };
  } catch {
    return { ok: false, hidden: false, error: FAILED };
  }
}

export type AdminActionResult = { ok: true } | { ok: false; error: string };

/** POSTs an action; a refusal answers the server's sentence. */
export async function adminPost(path: string, body: object): Promise<AdminActionResult> {
  try {
    const answer = await postJson<unknown>(`${ADMIN_API_BASE}${path}`, body);
    if (answer.ok) return { ok: true };
    return { ok: false, error: errorMessage(answer.data) ?? `The server answered ${answer.status}.` };
  } catch {
    return { ok: false, error: FAILED };
  }
}

const id = encodeURIComponent;

export const ADMIN_READS = {
  /** Who the operator is: what the console asks first (404: the visitor is none). */
  me: '/me',
  search: (q: string) => `/accounts?q=${encodeURIComponent(q)}`,
  account: (accountId: string) => `/accounts/${id(accountId)}`,
  ledger: (accountId: string, page: number) => `/accounts/${id(accountId)}/ledger?page=${page}`,
  jobs: (accountId: string, page: number) => `/accounts/${id(accountId)}/jobs?page=${page}`,
  /** The audit log, or one account's part of it. */
  audit: (page: number, accountId?: string) =>
    `/audit?page=${page}${accountId ? `&account=${encodeURIComponent(accountId)}` : ''}`,
  overview: '/overview',
} as const;

export type {
  AdminAccountDetail,
  AdminAccountList,
  AdminAuditPage,
  AdminJobPage,
  AdminLedgerPage,
  AdminOperator,
  AdminOverview,
};

export const ADMIN_ACTIONS_API = {
  tokens: (accountId: string, delta: number, reason: string) =>
    adminPost(`/accounts/${id(accountId)}/tokens`, { delta, reason }),
  flags: (accountId: string, flags: Omit<AdminFlagsRequest, 'reason'>, reason: string) =>
    adminPost(`/accounts/${id(accountId)}/flags`, { ...flags, reason }),
  verificationMail: (accountId: string, reason: string) =>
    adminPost(`/accounts/${id(accountId)}/verification-mail`, { reason }),
  signOut: (accountId: string, reason: string) => adminPost(`/accounts/${id(accountId)}/sign-out`, { reason }),
  refund: (jobId: string, reason: string) => adminPost(`/jobs/${id(jobId)}/refund`, { reason }),
  revokeKey: (keyId: string, reason: string) => adminPost(`/keys/${id(keyId)}/revoke`, { reason }),
};
