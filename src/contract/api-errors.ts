// What each refusal of a public API call means: the OpenAPI document's responses and the
// /developers page's table say the same. No zod here: the page loads it.
import { formatFileSize, TOOL_BODY_MAX_BYTES } from './input-limits';

/** Status -> what it means, for a tool call (other routes answer a subset). */
export const API_ERROR_STATUSES: Record<string, string> = {
  '400':
    'The request is not valid (a field is missing or wrong, an image cannot be read): its error says what. Nothing is charged.',
  '401': 'No key or session, or the key was revoked.',
  '402': 'Not enough tokens for this call. Nothing is charged.',
  '403': 'Not allowed: an unverified or suspended account, or a key used where a session is needed.',
  '404': 'No such batch, job, file or key of this account.',
  '406':
    'The answer asked for (Accept) is one this call cannot give: the Image Analyzer answers JSON, not an image. Nothing is charged.',
  '409': "The account's state refuses it (its storage is full). Nothing is charged.",
  '413': `The body is larger than ${formatFileSize(TOOL_BODY_MAX_BYTES)}, or the image than its limit.`,
  '415': 'The body is neither JSON (application/json) nor a multipart form (multipart/form-data). Nothing is charged.',
  '422':
    'The same Idempotency-Key was sent with another body, or the image cannot be used by this tool (its error says why). Nothing is charged.',
  '429': 'Too many calls a minute, or too many jobs running: wait Retry-After seconds.',
  '431': 'The address or the headers are too large (over 16 KB together): send long values in the body.',
  '502': 'The job failed: its tokens went back (refunded: true).',
};
