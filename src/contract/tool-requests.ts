// What every tool's request schema shares: its image fields, the text it cannot store, its first
// problem in words, and its body's type. Each tool's zod schema is `request` in its own folder
// (contract/tools/<tool-id>/request.ts); the server's module of the tool carries it
// (server/tools/<tool-id>/index.ts) and /developers finds them by folder, so no list of them is
// kept here (one would load every schema wherever one is needed).
// (zod lives in these modules only, so pages that do not validate do not load it.)
import type { z } from 'zod';
import { isSentence, MAX_PROMPT_CHARS } from './input-limits';
import { image } from './request-fields';
import { unstorableTextError, unstorableTextField } from './text';
import type { ToolId } from './tools';

export { IMAGE_FIELD_MESSAGE } from './request-fields';
export { MAX_PROMPT_CHARS };

/**
 * Each tool's request schema by its id, as a type only: each tool's request.ts adds its own entry
 * (TypeScript's interface merging: `declare module '../../tool-requests'`), so that no file lists
 * them. (A type list in tool-list.ts would be an import cycle: the schemas import what tools.ts
 * derives from that list.) A tool without its entry fails to compile just below.
 */
// biome-ignore lint/suspicious/noEmptyInterface: each tool's request.ts adds its entry (interface merging)
export interface ToolRequestSchemas {}

type WithoutRequest = Exclude<ToolId, keyof ToolRequestSchemas>;
const everyToolHasARequest: [WithoutRequest] extends [never] ? true : WithoutRequest = true;
void everyToolHasARequest;

/** A tool's request body, as the page sends it (the schema's input side). */
export type ToolRequest<T extends ToolId> = z.input<ToolRequestSchemas[T]>;

/** A request schema: an object of fields (each tool's `request`). */
type RequestSchema = z.ZodObject;

/**
 * The fields of a tool's `request` that carry an image (those of the shared `image` schema): a
 * multipart call sends each as a file part of the same name (server/jobs/request/tool-call-body.ts;
 * the OpenAPI document's multipart body).
 */
export const imageFieldsOf = (request: RequestSchema): string[] =>
  Object.entries(request.shape)
    .filter(([, schema]) => schema === image)
    .map(([field]) => field);

/**
 * Why a call's text cannot be taken, or null: a field of the tool's `request` (or one the route reads itself, a
 * batch image's `name`) holding a control character or a broken Unicode character (contract/text.ts),
 * which the database fails on (NUL) or a renderer downstream breaks on. Checked as the body is read,
 * before anything is charged or stored. Images are checked as images, and the prompt by its schema,
 * trimmed, with the sentence its page shows.
 */
export function unstorableTextRefusal(
  request: RequestSchema,
  body: Record<string, unknown>,
  routeFields: readonly string[] = [],
): string | null {
  const skipped = new Set(['prompt', ...imageFieldsOf(request)]);
  const fields = [...Object.keys(request.shape), ...routeFields].filter((f) => !skipped.has(f));
  const field = unstorableTextField(body, fields);
  return field === null ? null : unstorableTextError(field);
}

/**
 * The first problem of a failed parse of `body`: its field and reason (the API answers a reason that
 * is a sentence for the user alone, others as "field: reason").
 */
export function describeIssue(error: z.ZodError, body: unknown): { field: string; reason: string } {
  const issue = error.issues[0];
  if (!issue) return { field: 'body', reason: 'invalid request' };
  const field = issue.path.length ? issue.path.join('.') : 'body';
  if (isSentence(issue.message)) return { field, reason: issue.message };
  const given = issue.path.reduce<unknown>(
    (value, key) => (value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined),
    body,
  );
  if (issue.code === 'invalid_type' && given === undefined) return { field, reason: 'is required' };
  return { field, reason: issue.message };
}
