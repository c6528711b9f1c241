// What a user stores against the quota, and the retention in force (contract CreationUsage).
import type { CreationUsage } from '../../contract/creations';
import type { AppDb } from '../db/client';
import { storageUsedBy } from './creations-repository';
import type { RetentionSettings } from './retention';

export type CreationSettingsConfig = RetentionSettings & { quotaBytes: number };

export const STORAGE_QUOTA_REACHED =
  'Your storage is full: delete some creations in My Creations to make room, then try again. Nothing was charged.';

export async function usageOf(db: AppDb, userId: string, settings: CreationSettingsConfig): Promise<CreationUsage> {
  return {
    usedBytes: await storageUsedBy(db, userId),
    quotaBytes: settings.quotaBytes,
    uploadRetentionDays: settings.uploadRetentionDays,
    resultRetentionDays: settings.resultRetentionDays,
  };
}
