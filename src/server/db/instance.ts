// The installation's identity row (see schema.ts): created on first start, read on every start.

import type { AppDb } from './client';
import { appInstance } from './schema';

export type InstanceInfo = { instanceId: string; createdAt: Date };

export async function ensureInstance(db: AppDb): Promise<InstanceInfo> {
  await db.insert(appInstance).values({}).onConflictDoNothing();
  const [row] = await db
    .select({ instanceId: appInstance.instanceId, createdAt: appInstance.createdAt })
    .from(appInstance);
  if (!row) throw new Error('app_instance row missing after insert');
  return row;
}
