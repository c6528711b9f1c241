// A tool call's body as the tool-call service takes it (tool-call-service.ts `callTool`): a plain
// object, and a text its Idempotency-Key is checked against. JSON as it always was (the text is the
// body itself), or multipart/form-data (issue 39): an image as a file part named as its JSON field,
// the other fields as form fields. A form becomes the object the JSON call would have sent (a file
// as a data URL, values typed by the field's schema), so the same rules, limits, messages and price
// apply; its text is a canonical form of that object, since every multipart body has its own
// boundary. Anything else is a 415.
import { imageFieldsOf, unstorableTextRefusal } from '../../../contract/tool-requests';
import type { ToolDefinition } from '../../../contract/tools';
import { sniffFormat } from '../../images/image-input';
import { serverTool } from '../../tools/registry';

export type ToolCallBody = {
  body: Record<string, unknown>;
  /** What the Idempotency-Key's request hash is made of: the JSON text, or the form's canonical text. */
  canonical: string;
};

export type ToolCallBodyProblem = { status: 400 | 415; error: string };

/** Fields a call may carry besides its tool's own (what the tool-call routes read themselves). */
export const CALL_FIELDS: readonly string[] = ['webhook'];

export const BODY_MESSAGES = {
  notJson: 'body: must be JSON',
  notJsonObject: 'body: must be a JSON object',
  badMultipart: 'body: is not valid multipart/form-data (check the boundary and that every part is complete)',
  unsupportedType: (type: string) => `A tool call's body must be application/json or multipart/form-data, not ${type}.`,
  unknownField: (field: string, tool: ToolDefinition, fields: readonly string[]) =>
    `${field}: is not a field of ${tool.title} (its fields: ${fields.join(', ')})`,
  manyFiles: (field: string, count: number) => `${field}: must be one file, not ${count}`,
  repeated: (field: string, count: number) => `${field}: must be given once, not ${count} times`,
  fileForText: (field: string) => `${field}: must be a form field, not a file`,
} as const;

type RequestLike = { header(name: string): string | undefined; text(): Promise<string>; formData(): Promise<FormData> };

/** The call's body from `request`, or why it cannot be read (answered as is, nothing charged). */
export async function readToolCallBody(
  request: RequestLike,
  tool: ToolDefinition,
  /** Fields the route reads itself besides CALL_FIELDS (a batch image's `item` and `name`). */
  routeFields: readonly string[] = [],
): Promise<ToolCallBody | ToolCallBodyProblem> {
  const read = await readBody(request, tool, routeFields);
  if ('error' in read) return read;
  // JSON's \u0000 escapes and a form's raw bytes alike: a NUL would fail the job's insert (a 500).
  const unstorable = unstorableTextRefusal(serverTool(tool.id).request, read.body, routeFields);
  return unstorable ? { status: 400, error: unstorable } : read;
}

async function readBody(
  request: RequestLike,
  tool: ToolDefinition,
  routeFields: readonly string[],
): Promise<ToolCallBody | ToolCallBodyProblem> {
  const type = mediaTypeOf(request.header('content-type'));
  // No Content-Type: JSON, as calls have always been read.
  if (type === '' || type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type)) {
    const text = await request.text();
    const body = parseObject(text);
    return typeof body === 'string' ? { status: 400, error: body } : { body, canonical: text };
  }
  if (type === 'multipart/form-data') {
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      return { status: 400, error: BODY_MESSAGES.badMultipart };
    }
    return formToBody(form, tool, routeFields);
  }
  return { status: 415, error: BODY_MESSAGES.unsupportedType(type) };
}

const mediaTypeOf = (header: string | undefined) => (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** The body as a JSON object, or what is wrong with it. */
function parseObject(raw: string): Record<string, unknown> | string {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return BODY_MESSAGES.notJson;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return BODY_MESSAGES.notJsonObject;
  return body as Record<string, unknown>;
}

/** The object a JSON call of `tool` would send for `form`, or the first thing wrong with the form. */
export async function formToBody(
  form: FormData,
  tool: ToolDefinition,
  routeFields: readonly string[] = [],
): Promise<ToolCallBody | ToolCallBodyProblem> {
  const schema = serverTool(tool.id).request;
  const imageFields = imageFieldsOf(schema);
  const fields = [...new Set([...Object.keys(schema.shape), ...CALL_FIELDS, ...routeFields])];
  const byName = new Map<string, FormDataEntryValue[]>();
  for (const [name, value] of form.entries()) byName.set(name, [...(byName.get(name) ?? []), value]);

  const body: Record<string, unknown> = {};
  for (const [name, values] of byName) {
    if (!fields.includes(name)) return refuse(BODY_MESSAGES.unknownField(name, tool, fields));
    const files = values.filter((value) => typeof value !== 'string');
    if (files.length > 1) return refuse(BODY_MESSAGES.manyFiles(name, files.length));
    if (values.length > 1) return refuse(BODY_MESSAGES.repeated(name, values.length));
    const [value] = values as [FormDataEntryValue];
    if (typeof value === 'string') {
      // An image field may also be text: a data URL, base64 or a stored file's URL, as in JSON.
      body[name] = imageFields.includes(name) ? value : typed(schema.shape, name, value);
    } else if (imageFields.includes(name)) {
      body[name] = asDataUrl(Buffer.from(await value.arrayBuffer()));
    } else {
      return refuse(BODY_MESSAGES.fileForText(name));
    }
  }
  // Keys in one order: the same fields and bytes give the same text whatever order the parts came in.
  const canonical = `multipart/form-data\n${JSON.stringify(Object.fromEntries(Object.entries(body).sort(byKey)))}`;
  return { body, canonical };
}

const refuse = (error: string): ToolCallBodyProblem => ({ status: 400, error });
const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * A file's bytes as the JSON call's data URL. The type is read from the bytes, not the part's
 * (clients guess it from the file name): the image checks read the bytes anyway, and the same file
 * is the same text for the Idempotency-Key.
 */
const asDataUrl = (bytes: Buffer) =>
  `data:${sniffFormat(bytes) ?? 'application/octet-stream'};base64,${bytes.toString('base64')}`;

type Shape = Record<string, { safeParse(value: unknown): { success: boolean } }>;

/**
 * A form value (always text) as the JSON value its field takes: the text itself when the field
 * takes it (a prompt "2024" stays text), else the number or boolean it spells when the field takes
 * that (scale=4, goFast=true). When neither passes, the typed value when there is one (numOutputs=9
 * is refused as a number out of range, not as "must be a number"), else the text: the schema then
 * refuses it with the JSON call's own message.
 */
function typed(shape: Shape, field: string, text: string): unknown {
  const schema = shape[field];
  if (!schema || schema.safeParse(text).success) return text;
  const candidates: unknown[] = [];
  if (/^-?\d+(\.\d+)?$/.test(text)) candidates.push(Number(text));
  if (text === 'true' || text === 'false') candidates.push(text === 'true');
  return candidates.find((value) => schema.safeParse(value).success) ?? candidates[0] ?? text;
}
