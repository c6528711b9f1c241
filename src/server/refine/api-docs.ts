// The OpenAPI operations of refining a cut-out by hand (declared on their routes in routes.ts with
// describeRoute; decision 067, decision 082).
import { json, RATE_LIMIT_HEADERS, refusal } from '../api-docs/components';
import type { OperationDoc } from '../api-docs/describe-route';

const jobIdParameter = {
  name: 'jobId',
  in: 'path',
  required: true,
  description: 'The job id of a Background Remover result, or of a version refined from one.',
  schema: { type: 'string', format: 'uuid' },
};

export const REFINE_OPERATION: OperationDoc = {
  operationId: 'refineCreation',
  tag: 'Jobs',
  summary: 'Refine a cut-out by hand',
  description:
    "A new version of a Background Remover result from its original photo and an edited mask, finished with the job's own options " +
    '(background, crop, size, shadow, format) again. Free: nothing is charged. The mask is white where the subject stays and ' +
    "black or transparent where it goes, a PNG or WebP of the photo's size (upright) or smaller in its shape " +
    '(scaled up to it); start from GET /api/creations/{jobId}/mask. The new version is a creation of its own, listed with the others in `versions`.',
  access: 'key-or-session',
  parameters: [jobIdParameter],
  body: {
    'application/json': { $ref: '#/components/schemas/RefineRequest' },
    'multipart/form-data': { $ref: '#/components/schemas/RefineMultipartRequest' },
  },
  responses: {
    '201': {
      description: 'The new version, as My Creations lists it.',
      headers: RATE_LIMIT_HEADERS,
      content: json('Creation'),
    },
    '400': refusal("The mask is missing, not a PNG or WebP image, damaged, or not the photo's size or shape."),
    '404': refusal('No such creation of this account.'),
    '409': refusal(
      'The result cannot be refined: not a Background Remover result, not finished, made before refining was possible, its photo deleted, or the storage full.',
    ),
    '413': refusal('The mask is larger than an image may be.'),
  },
};

export const MASK_OPERATION: OperationDoc = {
  operationId: 'getCreationMask',
  tag: 'Jobs',
  summary: "Download a cut-out's mask",
  description:
    "The matte of a Background Remover result (the model's, or the one a refined version was made with): a one-channel PNG, " +
    "white where the subject is, the photo's size upright. Edit it and send it to POST /api/creations/{jobId}/refine.",
  access: 'key-or-session',
  parameters: [jobIdParameter],
  responses: {
    '200': {
      description: 'The mask.',
      headers: RATE_LIMIT_HEADERS,
      content: { 'image/png': { schema: { type: 'string', format: 'binary', contentMediaType: 'image/png' } } },
    },
    '404': refusal(
      'No such creation of this account, or it has no mask (not a Background Remover result, or made before masks were kept).',
    ),
  },
};
