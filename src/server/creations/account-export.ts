// GET /api/account/export: a zip of the user's outputs, streamed one file at a time (memory stays
// at one image), with jobs.json (every creation as the list shows it) and purchases.json.

import { desc, eq } from 'drizzle-orm';
import type { Creation } from '../../contract/creations';
import type { AppDb } from '../db/client';
import { payments } from '../db/schema';
import { listPageJobs, type PageCursor } from '../jobs/views/job-pages';
import { extensionFor, zipStream } from '../responses/zip-stream';
import type { FileStorage } from '../storage/storage';
import { viewCreation } from './creation-view';
import { batchImageCounts, chargesOfJobs, filesOfJobs, versionsOfJobs } from './creations-repository';

const PAGE = 100;

/** All the user's creations, newest first, with each output's storage key. */
async function* allCreations(db: AppDb, userId: string) {
  let cursor: PageCursor | null = null;
  for (;;) {
    const page = await listPageJobs(db, userId, { tool: null, cursor, limit: PAGE });
    const ids = page.map((j) => j.id);
    const [jobFiles, charges, batchImages, versions] = await Promise.all([
      filesOfJobs(db, ids),
      chargesOfJobs(db, ids),
      batchImageCounts(db, page),
      versionsOfJobs(db, page),
    ]);
    for (const job of page) {
      const own = jobFiles.filter((f) => f.jobId === job.id);
      yield { creation: viewCreation(job, own, charges.get(job.id), null, batchImages, versions), files: own };
    }
    const last = page.at(-1);
    if (page.length < PAGE || !last) return;
    cursor = last.cursor;
  }
}

export function exportAccount(db: AppDb, storage: FileStorage, userId: string): ReadableStream<Uint8Array> {
  return zipStream(async (addFile) => {
    const creations: Creation[] = [];
    for await (const { creation, files } of allCreations(db, userId)) {
      creations.push(creation);
      for (const [index, output] of creation.outputs.entries()) {
        const file = files.find((f) => f.id === output.id);
        const bytes = file ? await storage.get(file.storageKey) : null;
        if (!file || !bytes) continue;
        const day = creation.createdAt.slice(0, 10);
        addFile(`outputs/${day}-${creation.tool}-${creation.id}-${index + 1}.${extensionFor(file.contentType)}`, bytes);
      }
    }
    addFile('jobs.json', Buffer.from(JSON.stringify(creations, null, 2)));
    const purchases = await db
      .select({
        id: payments.id,
        provider: payments.provider,
        packageId: payments.packageId,
        tokens: payments.tokens,
        amountCents: payments.amountCents,
        status: payments.status,
        createdAt: payments.createdAt,
        completedAt: payments.completedAt,
      })
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.createdAt));
    addFile('purchases.json', Buffer.from(JSON.stringify(purchases, null, 2)));
  });
}
