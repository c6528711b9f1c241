// The OpenAPI operations of a job's reads (declared on their routes in job-routes.ts and
// file-routes.ts with describeRoute; decision 067).
import { OUTPUT_FORMATS } from '../../../contract/output-files';
import {
  idParameter,
  imageContent,
  json,
  preferParameter,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER,
  refusal,
} from '../../api-docs/components';
import type { OperationDoc } from '../../api-docs/describe-route';

export const GET_JOB_OPERATION: OperationDoc = {
  operationId: 'getJob',
  tag: 'Jobs',
  summary: 'Read a job',
  description: 'A job of the account: its status, its outputs once it succeeded.',
  access: 'key-or-session',
  parameters: [
    idParameter('The job id (X-Job-Id, or `jobId` of a tool call).'),
    preferParameter('`wait=N`: wait up to N seconds (at most 5) for a queued or running job to end.'),
  ],
  responses: {
    '200': { description: 'The job.', headers: RATE_LIMIT_HEADERS, content: json('JobDetail') },
    '404': refusal('No such job of this account.'),
  },
};

export const GET_FILE_OPERATION: OperationDoc = {
  operationId: 'getFile',
  tag: 'Jobs',
  summary: 'Download a file',
  description:
    'An image of the account (an output or an upload): its bytes. An `Accept` that takes only other image types ' +
    '(`image/png`, `image/jpeg`, `image/webp`, `image/avif`) than the stored one gets the image converted, as ' +
    'with `?format=`; `*/*`, `image/*` or the stored type get it as stored. A conversion is kept once made; ' +
    'making one counts against a per-account limit a minute and is stopped when it takes too long.',
  access: 'key-or-session',
  parameters: [
    idParameter('The file id of an output URL (/api/files/<id>).'),
    {
      name: 'format',
      in: 'query',
      required: false,
      description: 'The image in this format instead of the one it is stored in.',
      schema: { type: 'string', enum: [...OUTPUT_FORMATS] },
    },
    {
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'The ETag of a copy already held: 304 when it is still this file.',
      schema: { type: 'string' },
    },
  ],
  responses: {
    '200': {
      description:
        'The image; with `?format=png|jpeg|webp|avif`, converted to that format (its colour profile and metadata kept).',
      headers: { ETag: { description: 'Send it as If-None-Match to read it again.', schema: { type: 'string' } } },
      content: imageContent(),
    },
    '304': { description: 'The copy held (If-None-Match) is still this file.' },
    '400': refusal(
      '`format` is not one of png, jpeg, webp, avif; a transparent image asked for as JPEG; or a broken percent-encoded address.',
    ),
    '404': refusal('No such file of this account.'),
    '406': refusal('Accept takes none of the image types this file can be given in (or JPEG for a transparent image).'),
    '429': {
      ...refusal('Too many images converted to another format this minute: wait Retry-After seconds.'),
      headers: RETRY_AFTER,
    },
    '503': {
      ...refusal(
        'The conversion took too long and was stopped; nothing was kept. Try again after Retry-After seconds.',
      ),
      headers: RETRY_AFTER,
    },
  },
};
