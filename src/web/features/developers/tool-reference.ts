// Each tool's reference on /developers, read from the contract (never typed by hand): its route
// (its definition; its price is this server's, GET /api/tools, read by the page), its fields as the
// OpenAPI document describes them (the input side of its `request` schema, request-schemas.ts,
// through z.toJSONSchema) and its limits (tool-limits.ts); its example call and field notes come from
// its web module (features/tools/<tool-id>/tool.ts).
import { z } from 'zod';
import { formatCount } from '../../../contract/input-limits';
import { toolInputLimits } from '../../../contract/tool-limits';
import { imageFieldsOf } from '../../../contract/tool-requests';
import type { ToolDefinition } from '../../../contract/tools';
import { REQUEST_SCHEMAS } from './request-schemas';

type JsonSchema = {
  type?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  format?: string;
  default?: unknown;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
};

export type FieldReference = {
  name: string;
  /** "text", "one of 1:1, 9:16, 16:9", "whole number from 1 to 4", "image"... */
  accepts: string;
  /** "required", or "optional (default 1)". */
  presence: string;
  description: string | null;
};

/**
 * What the page reads of a tool: the contract's entry and its web module's words for the API (the
 * fields of the same names in features/tools/web-tool.ts, which says what each one is).
 */
export type DeveloperTool = ToolDefinition & {
  apiExample: Readonly<Record<string, string>>;
  apiFieldNotes?: Readonly<Record<string, string>>;
  apiGuide?: true;
};

export type ToolReference = {
  tool: DeveloperTool;
  method: 'POST';
  path: string;
  fields: FieldReference[];
  limits: string[];
};

/** Fields the guide leaves out: `userId` is the browser app's own (a call acts as the key's owner). */
const HIDDEN_FIELDS = ['userId'];

const listed = (values: unknown[]) => values.map((value) => String(value)).join(', ');

function accepts(schema: JsonSchema, isImage: boolean): string {
  if (isImage) return 'image: a file part (multipart), a data URL or base64 (JSON), or /api/files/<id>';
  if (schema.const !== undefined) return `always ${String(schema.const)}`;
  if (schema.enum) return `one of ${listed(schema.enum)}`;
  if (schema.anyOf?.every((option) => option.const !== undefined)) {
    return `one of ${listed(schema.anyOf.map((option) => option.const))}`;
  }
  // zod's .int() alone bounds a number by the safe integers: no limit worth stating.
  const bounded = (bound: number | undefined) => bound !== undefined && Math.abs(bound) < Number.MAX_SAFE_INTEGER;
  if (schema.type === 'integer' && bounded(schema.minimum) && bounded(schema.maximum)) {
    return `whole number from ${schema.minimum} to ${schema.maximum}`;
  }
  if (schema.type === 'integer') return 'whole number';
  if (schema.format === 'uri') return 'URL';
  if (schema.type === 'string' && schema.maxLength !== undefined) {
    return `text, up to ${formatCount(schema.maxLength)} characters`;
  }
  return schema.type === 'string' ? 'text' : String(schema.type ?? 'value');
}

export function toolReference(tool: DeveloperTool): ToolReference {
  const request = REQUEST_SCHEMAS[tool.id];
  if (!request) throw new Error(`no request schema for tool ${tool.id} (contract/tools/${tool.id}/request.ts)`);
  const body = z.toJSONSchema(request, { io: 'input' }) as JsonSchema;
  const images = imageFieldsOf(request);
  const required = new Set(body.required ?? []);
  const fields = Object.entries(body.properties ?? {})
    .filter(([name]) => !HIDDEN_FIELDS.includes(name))
    .map(([name, schema]) => ({
      name,
      accepts: [accepts(schema, images.includes(name)), tool.apiFieldNotes?.[name]].filter(Boolean).join(': '),
      presence: required.has(name)
        ? 'required'
        : schema.default !== undefined
          ? `optional (default ${String(schema.default)})`
          : 'optional',
      description: schema.description ?? null,
    }));
  return {
    tool,
    method: 'POST',
    path: `/api${tool.apiPath}`,
    fields,
    limits: toolInputLimits(tool.id),
  };
}

/** The tools of `references` that take field `name`, grouped by what it accepts there (in the tools' order). */
export function fieldAcrossTools(
  references: readonly ToolReference[],
  name: string,
): { accepts: string; tools: ToolDefinition[] }[] {
  const groups = new Map<string, ToolDefinition[]>();
  for (const reference of references) {
    const field = reference.fields.find((candidate) => candidate.name === name);
    if (field) groups.set(field.accepts, [...(groups.get(field.accepts) ?? []), reference.tool]);
  }
  return [...groups].map(([accepts, tools]) => ({ accepts, tools }));
}
