// Batches as GET /api/batches/:id answers them, for the web tests.
import { type Batch, type BatchItem, type BatchToolId, isBatchTool } from '../../contract/batches';
import type { Creation } from '../../contract/creations';
import { creation, EXAMPLE_TOOL, storedImage } from './creation-fixtures';

/** A batch's tool unless a test names another: the creations' example tool, which a batch takes. */
const BATCH_TOOL: BatchToolId = (() => {
  const id = EXAMPLE_TOOL.id;
  if (!isBatchTool(id)) throw new Error(`${id} is not a batch tool`);
  return id;
})();

/** Image `item` of batch `batchId`, named `name`: waiting unless told otherwise. */
export function batchItem(batchId: string, item: number, name: string, overrides: Partial<BatchItem> = {}): BatchItem {
  return {
    ...creation({
      id: `${batchId}-job-${item}`,
      status: 'queued',
      outputs: [],
      inputs: [storedImage(100 + item)],
      finishedAt: null,
      batch: { id: batchId, item, name, images: 1 },
    }),
    queuePosition: null,
    resultName: null,
    ...overrides,
  };
}

/** A batch of `size` images with `items` sent, its counts from them. */
export function batchOf(
  id: string,
  size: number,
  items: BatchItem[] = [],
  overrides: Partial<Batch> & { tool?: BatchToolId } = {},
): Batch {
  const count = (status: BatchItem['status']) => items.filter((item) => item.status === status).length;
  return {
    id,
    tool: BATCH_TOOL,
    size,
    createdAt: '2026-11-28T10:00:00.000Z',
    price: EXAMPLE_TOOL.cost,
    items,
    refused: [],
    counts: { waiting: count('queued'), running: count('running'), done: count('succeeded'), failed: count('failed') },
    charged: items.reduce((sum, item) => sum + item.charged, 0),
    refunded: items.reduce((sum, item) => sum + item.refunded, 0),
    secondsLeft: null,
    downloadUrl: `/api/batches/${id}/download`,
    ...overrides,
  };
}

/** A finished job of batch `batchId` as GET /api/creations lists it. */
export const batchCreation = (batchId: string, item: number, name: string, overrides: Partial<Creation> = {}) =>
  creation({
    id: `${batchId}-job-${item}`,
    inputs: [storedImage(100 + item)],
    outputs: [storedImage(200 + item)],
    batch: { id: batchId, item, name, images: 1 },
    ...overrides,
  });
