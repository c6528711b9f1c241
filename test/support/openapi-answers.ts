// Checks what the server really answered against the OpenAPI document it serves (issue 52), as a
// client generated from that document would read it: the status is one the operation lists, the
// Content-Type one of that answer's media types, and a JSON body valid against its schema (ajv,
// JSON Schema 2020-12, the dialect of OpenAPI 3.1, over the document's own components).
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

// biome-ignore lint/suspicious/noExplicitAny: the parsed document, walked as JSON
export type OpenApiDocument = Record<string, any>;

/** One request and its answer as a client received it (the body read whole). */
export type Exchange = {
  method: string;
  url: string;
  /** The request body's Content-Type, when it had one. */
  requestContentType?: string | null;
  status: number;
  contentType: string | null;
  body: Uint8Array;
};

/** A Content-Type's media type, without its parameters. */
const mediaOf = (contentType: string | null | undefined) =>
  (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** The document's base, under which its local references (#/components/...) resolve. */
const ROOT = 'https://openapi.test/openapi.json';

/** A JSON pointer's token: `/` and `~` escaped (RFC 6901). */
const token = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

const isJsonMedia = (media: string) => media === 'application/json' || media.endsWith('+json');

/** A readable excerpt of a body for a finding. */
export function excerptOf(body: Uint8Array, length = 160): string {
  const text = new TextDecoder().decode(body.subarray(0, length * 4));
  return text.length > length ? `${text.slice(0, length)}...` : text;
}

export function openApiAnswers(document: OpenApiDocument) {
  // Strict: a word that is not JSON Schema's or OpenAPI's in a schema is an error, not ignored.
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true, logger: false });
  addFormats(ajv);
  // OpenAPI 3.1's own words in a schema (its base vocabulary), and the sections of the document that
  // hold schemas: the document is one schema resource, so that a schema anywhere in it (a response's,
  // a webhook's) compiles by its pointer and its `#/components/schemas/X` resolve against the document.
  const sections = ['components', 'paths', 'webhooks'] as const;
  ajv.addVocabulary(['discriminator', 'xml', 'externalDocs', 'example', ...sections]);
  ajv.addSchema({
    $id: ROOT,
    ...Object.fromEntries(sections.filter((name) => document[name]).map((name) => [name, document[name]])),
  });

  /** The value at a JSON pointer of the document, following a `$ref` found there (a shared response). */
  function at(pointer: string): { pointer: string; value: OpenApiDocument | undefined } {
    let value: unknown = document;
    for (const part of pointer.split('/').slice(1)) {
      const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
      value = value && typeof value === 'object' ? (value as OpenApiDocument)[key] : undefined;
    }
    const reference = (value as OpenApiDocument | undefined)?.$ref;
    if (typeof reference === 'string' && reference.startsWith('#/')) return at(reference.slice(1));
    return { pointer, value: value as OpenApiDocument | undefined };
  }

  /** Problems of `value` against the schema at `pointer`: none when it is valid. */
  function schemaProblems(pointer: string, value: unknown): string[] {
    let validate: ReturnType<typeof ajv.getSchema>;
    try {
      validate = ajv.getSchema(`${ROOT}#${pointer}`);
    } catch (error) {
      return [`its schema does not compile: ${(error as Error).message}`];
    }
    if (!validate) return [`no schema at ${pointer}`];
    if (validate(value)) return [];
    return (validate.errors ?? [])
      .slice(0, 4)
      .map((error) => `${error.instancePath || '(body)'} ${error.message} (${error.schemaPath})`);
  }

  /** The path prefix of the first server's URL: paths are written below it. */
  const serverPath = (() => {
    const url = document.servers?.[0]?.url;
    return typeof url === 'string' ? new URL(url, 'http://server.test').pathname.replace(/\/$/, '') : '';
  })();

  /** The document's path template an answer's URL matches, with its operation for `method`. */
  function operationOf(method: string, url: string): { template: string; operation: OpenApiDocument } | undefined {
    const { pathname } = new URL(url, 'http://server.test');
    if (!pathname.startsWith(serverPath)) return undefined;
    const path = pathname.slice(serverPath.length);
    // A literal path before a templated one: /api/batches/{id} never hides /api/batches.
    const templates = Object.keys(document.paths ?? {}).sort(
      (a, b) => Number(a.includes('{')) - Number(b.includes('{')),
    );
    for (const template of templates) {
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+')}$`);
      const operation = document.paths[template]?.[method.toLowerCase()];
      if (pattern.test(path) && operation) return { template, operation };
    }
    return undefined;
  }

  /** What is wrong with an answer, by the document: nothing when a generated client reads it as described. */
  function problemsOf(exchange: Exchange): string[] {
    const { pathname, search } = new URL(exchange.url);
    const found = operationOf(exchange.method, exchange.url);
    const call = `${exchange.method} ${pathname}${search.length > 60 ? `${search.slice(0, 60)}...` : search}`;
    const answered = `the server answered ${exchange.status} ${exchange.contentType ?? '(no Content-Type)'} ${excerptOf(exchange.body)}`;
    if (!found) return [`${call}: no operation of the document; ${answered}`];
    const operationPointer = `/paths/${token(found.template)}/${exchange.method.toLowerCase()}`;
    const name = `${exchange.method} ${found.template}`;
    const documented = Object.keys(found.operation.responses ?? {});
    const status = String(exchange.status);
    const key = [status, `${status[0]}XX`, 'default'].find((candidate) => documented.includes(candidate));
    if (!key) return [`${name}: ${status} is not documented (it lists ${documented.join(', ')}); ${answered}`];
    const problems: string[] = [];
    // A body the server took must be one the document offers (a generated client sends no other).
    const sent = mediaOf(exchange.requestContentType);
    if (sent && exchange.status < 300) {
      const accepted = Object.keys(at(`${operationPointer}/requestBody`).value?.content ?? {});
      if (!accepted.includes(sent))
        problems.push(
          `${name}: the server took a ${sent} body, the document lists ${accepted.join(', ') || 'no body'}`,
        );
    }
    const response = at(`${operationPointer}/responses/${token(key)}`);
    const content: OpenApiDocument = response.value?.content ?? {};
    const mediaTypes = Object.keys(content);
    if (exchange.body.length === 0) {
      if (mediaTypes.length > 0 && exchange.method !== 'HEAD')
        problems.push(`${name} ${status}: an empty body where the document gives ${mediaTypes.join(', ')}`);
      return problems;
    }
    const media = mediaOf(exchange.contentType);
    const listed = [media, `${media.split('/')[0]}/*`, '*/*'].find((candidate) => mediaTypes.includes(candidate));
    if (!listed) {
      problems.push(
        `${name} ${status}: Content-Type ${media || '(none)'} is not among its media types (${mediaTypes.join(', ') || 'none: no body'}); ${answered}`,
      );
      return problems;
    }
    let parsed: unknown;
    if (isJsonMedia(media)) {
      try {
        parsed = JSON.parse(new TextDecoder().decode(exchange.body));
      } catch {
        problems.push(`${name} ${status}: the body is not JSON: ${excerptOf(exchange.body)}`);
        return problems;
      }
      if (content[listed]?.schema) {
        const schemaPointer = `${response.pointer}/content/${token(listed)}/schema`;
        problems.push(
          ...schemaProblems(schemaPointer, parsed).map((problem) => `${name} ${status}: ${problem}; ${answered}`),
        );
      }
    }
    // Every refusal says why in a sentence a program can show (issue 52, item 2).
    if (exchange.status >= 400 && exchange.status < 500) {
      const error = parsed && typeof parsed === 'object' ? (parsed as { error?: unknown }).error : undefined;
      if (typeof error !== 'string' || error === '')
        problems.push(`SERVER: ${name} ${status}: no JSON \`error\` sentence; ${answered}`);
    }
    return problems;
  }

  /** Problems of a delivered webhook event against the document's `webhooks` (any of its events). */
  function webhookProblems(event: unknown): string[] {
    const webhooks: OpenApiDocument = document.webhooks ?? {};
    const names = Object.keys(webhooks);
    if (names.length === 0) return ['the document has no `webhooks` section describing the event the server POSTs'];
    const tried: string[] = [];
    for (const name of names) {
      const operation = at(`/webhooks/${token(name)}`).value?.post;
      if (!operation) {
        tried.push(`webhooks.${name}: no post operation`);
        continue;
      }
      const body = at(`/webhooks/${token(name)}/post/requestBody`);
      if (!body.value?.content?.['application/json']?.schema) {
        tried.push(`webhooks.${name}: no application/json request body schema`);
        continue;
      }
      const problems = schemaProblems(`${body.pointer}/content/application~1json/schema`, event);
      if (problems.length === 0) return [];
      tried.push(...problems.map((problem) => `webhooks.${name}: ${problem}`));
    }
    return tried;
  }

  return { operationOf, problemsOf, webhookProblems };
}
