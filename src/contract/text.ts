// Text we store and pass on: no C0 control character but tab, line feed and carriage return, and no
// lone UTF-16 surrogate. JSON lets a client send them as \u escapes; they are refused as input (a
// 400 naming the field) rather than found by the database after the work (NUL), break a renderer
// downstream (U+0001 and the like, issue 36), or are silently replaced.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is its purpose
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

export const isStorableText = (text: string): boolean => !CONTROL_CHARACTER.test(text) && !LONE_SURROGATE.test(text);

export const UNSTORABLE_TEXT_MESSAGE =
  'contains characters that cannot be stored (a control character such as NUL, or a broken Unicode character)';

/** The first of `fields` whose value in `body` is text that cannot be stored (isStorableText), or null. */
export function unstorableTextField(body: Record<string, unknown>, fields: Iterable<string>): string | null {
  for (const field of fields) {
    const value = body[field];
    if (typeof value === 'string' && !isStorableText(value)) return field;
  }
  return null;
}

/** How the API refuses such a field (400): its name, then why. */
export const unstorableTextError = (field: string) => `${field}: ${UNSTORABLE_TEXT_MESSAGE}`;
