// My Creations shows a batch as one card: its jobs, wherever they fall in the pages of the list,
// gathered where the first of them appears (the list is newest first).
import type { Creation } from '../../../../contract/creations';

export type GridEntry =
  | { kind: 'single'; creation: Creation }
  | { kind: 'batch'; batchId: string; creations: Creation[] };

/** The list as cards: single jobs as they are, the jobs of a batch as one entry (in their batch order). */
export function groupBatches(creations: readonly Creation[]): GridEntry[] {
  const entries: GridEntry[] = [];
  const batches = new Map<string, Creation[]>();
  for (const creation of creations) {
    const batchId = creation.batch?.id;
    if (!batchId) {
      entries.push({ kind: 'single', creation });
      continue;
    }
    const known = batches.get(batchId);
    if (known) {
      known.push(creation);
      continue;
    }
    const members = [creation];
    batches.set(batchId, members);
    entries.push({ kind: 'batch', batchId, creations: members });
  }
  for (const members of batches.values()) members.sort((a, b) => (a.batch?.item ?? 0) - (b.batch?.item ?? 0));
  return entries;
}
