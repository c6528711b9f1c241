// The OpenAPI operations of batches (declared on their routes in routes.ts with describeRoute;
// decision 067).
import { BATCH_TOOL_IDS, MAX_BATCH_IMAGES } from '../../contract/batches';
import { idParameter, json, RATE_LIMIT_HEADERS, RETRY_AFTER, ref, refusal, toolRefusals } from '../api-docs/components';
import type { OperationDoc } from '../api-docs/describe-route';

const batchId = idParameter('The batch id.');
const noSuchBatch = refusal('No such batch of this account.');

export const CREATE_BATCH_OPERATION: OperationDoc = {
  operationId: 'createBatch',
  tag: 'Batches',
  summary: 'Start a batch',
  description: `Many images through one image tool (${BATCH_TOOL_IDS.join(', ')}), up to ${MAX_BATCH_IMAGES}. Nothing is charged here: send each image to POST /api/batches/{id}/images, where it is charged on its own at its tool's price (GET /api/tools). A batch counts as one call per minute, and each of its images as one more.`,
  access: 'key-or-session',
  body: { 'application/json': ref('CreateBatchRequest') },
  responses: {
    '201': { description: 'The batch, with no image yet.', headers: RATE_LIMIT_HEADERS, content: json('Batch') },
    '400': refusal(
      'Not a batch tool, a size out of range, names that are not one file name per image, or a broken percent-encoded address.',
    ),
    '401': refusal('No key or session, or the key is unknown or revoked.', 'ToolRefusal', 'Error'),
    '402': refusal('Not enough tokens for one image.', 'NotEnoughTokens'),
    '403': refusal(
      'The account cannot run tools now (unverified or suspended), or a session cookie came from another site.',
    ),
    '429': {
      description: 'Too many calls a minute: wait Retry-After seconds.',
      headers: { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER },
      content: json('ToolTooManyCalls'),
    },
  },
};

export const ADD_BATCH_IMAGE_OPERATION: OperationDoc = {
  operationId: 'addBatchImage',
  tag: 'Batches',
  summary: 'Send an image of a batch',
  description:
    "One image as its own job: the batch's tool's rules, price and refusals, charged on its own and refunded on its own if it fails. Send JSON (the image as raw base64 or a data URL, or `/api/files/<id>`) or multipart/form-data (the image as a file part named `image`, `item`, `name` and the tool's other fields as form fields). Answers at once: follow the batch at GET /api/batches/{id}. Sending an item again answers the job it made.",
  access: 'key-or-session',
  parameters: [batchId],
  body: {
    'application/json': ref('BatchImageRequest'),
    'multipart/form-data': ref('BatchImageMultipartRequest'),
  },
  responses: {
    '202': { description: 'Queued.', headers: RATE_LIMIT_HEADERS, content: json('BatchImageQueued') },
    ...toolRefusals(),
    '404': refusal('No such batch of this account.', 'ToolRefusal'),
  },
};

export const GET_BATCH_OPERATION: OperationDoc = {
  operationId: 'getBatch',
  tag: 'Batches',
  summary: 'Read a batch',
  description:
    'Each image sent with its state, place in the line and results; the images refused when they were sent, with the reason; counts by state; the time left.',
  access: 'key-or-session',
  parameters: [batchId],
  responses: {
    '200': { description: 'The batch.', headers: RATE_LIMIT_HEADERS, content: json('Batch') },
    '404': noSuchBatch,
  },
};

export const DOWNLOAD_BATCH_OPERATION: OperationDoc = {
  operationId: 'downloadBatch',
  tag: 'Batches',
  summary: 'Download a batch',
  description:
    'A zip of the results so far, each named after its input (IMG_0412.jpg -> IMG_0412-background-removed.png); an Image Analyzer batch as keywords.csv (Filename, Keywords, Colors). README.txt in it lists every image of the batch: done (its entry), still waiting or running, failed or refused (with the reason), or never sent.',
  access: 'key-or-session',
  parameters: [batchId],
  responses: {
    '200': {
      description: 'The zip.',
      content: {
        'application/zip': { schema: { type: 'string', format: 'binary', contentMediaType: 'application/zip' } },
      },
    },
    '404': noSuchBatch,
    '409': refusal('No image of it is done yet.'),
  },
};

export const DELETE_BATCH_OPERATION: OperationDoc = {
  operationId: 'deleteBatch',
  tag: 'Batches',
  summary: 'Delete a batch',
  description: 'The batch with its images and results, once none of its images waits or runs.',
  access: 'session',
  parameters: [batchId],
  responses: {
    '204': { description: 'Deleted.' },
    '404': noSuchBatch,
    '409': refusal('An image of it still waits or runs.'),
  },
};
