// The audit log (decision 078): who did what to whom, why, and what it changed. Every action of the
// console and every change `npm run admin` makes writes its entry with the transaction that makes
// the change, so an entry exists exactly when the change does.
import os from 'node:os';
import { count, desc, eq, type SQL } from 'drizzle-orm';
import {
  ADMIN_PAGE_SIZE,
  type AdminAction,
  type AdminAuditEntry,
  type AdminAuditPage,
  CLI_OPERATOR_ID,
} from '../../contract/admin';
import { adminAudit, user } from '../db/schema';
import type { DbOrTx } from '../ledger/ledger';

/** Who acts: a console operator (their user id and email), or `npm run admin` (`cli` and the OS user). */
export type Operator = { id: string; name: string };

export function cliOperator(): Operator {
  let name: string;
  try {
    name = os.userInfo().username;
  } catch {
    // No passwd entry for this uid (a container's arbitrary user): the environment still names it.
    name = process.env.USER ?? process.env.USERNAME ?? 'unknown';
  }
  return { id: CLI_OPERATOR_ID, name };
}

export type AuditRecord = {
  action: AdminAction;
  /** The account acted on. */
  accountId: string;
  /** What within it (a job, a key); omitted for the account itself. */
  subject?: string;
  reason: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

/** Writes the entry (in the caller's transaction) and answers it as the API shows it. */
export async function writeAudit(tx: DbOrTx, operator: Operator, record: AuditRecord): Promise<AdminAuditEntry> {
  const [row] = await tx
    .insert(adminAudit)
    .values({
      operatorId: operator.id,
      operatorName: operator.name,
      action: record.action,
      targetUserId: record.accountId,
      subject: record.subject ?? null,
      reason: record.reason,
      before: record.before,
      after: record.after,
    })
    .returning({ id: adminAudit.id });
  if (!row) throw new Error('the audit entry was not written');
  const [entry] = await entriesWhere(tx, eq(adminAudit.id, row.id));
  if (!entry) throw new Error('the audit entry was not read back');
  return entry;
}

/** The log, newest first, one page (from 1); only `accountId`'s entries when it is given. */
export async function auditPage(db: DbOrTx, page: number, accountId?: string): Promise<AdminAuditPage> {
  const where = accountId === undefined ? undefined : eq(adminAudit.targetUserId, accountId);
  const [items, [total]] = await Promise.all([
    entriesWhere(db, where, page),
    db.select({ n: count() }).from(adminAudit).where(where),
  ]);
  return { items, page, pageSize: ADMIN_PAGE_SIZE, total: total?.n ?? 0 };
}

async function entriesWhere(db: DbOrTx, where: SQL | undefined, page = 1): Promise<AdminAuditEntry[]> {
  const rows = await db
    .select({ entry: adminAudit, accountEmail: user.email })
    .from(adminAudit)
    .leftJoin(user, eq(user.id, adminAudit.targetUserId))
    .where(where)
    .orderBy(desc(adminAudit.id))
    .limit(ADMIN_PAGE_SIZE)
    .offset((page - 1) * ADMIN_PAGE_SIZE);
  return rows.map(({ entry, accountEmail }) => ({
    id: entry.id,
    at: entry.createdAt.toISOString(),
    operator: { id: entry.operatorId, name: entry.operatorName },
    action: entry.action,
    accountId: entry.targetUserId,
    accountEmail,
    subject: entry.subject,
    reason: entry.reason,
    before: entry.before ?? null,
    after: entry.after ?? null,
  }));
}
