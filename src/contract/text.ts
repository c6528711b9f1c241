// Text PostgreSQL can store: no NUL character and no lone UTF-16 surrogate. JSON lets a client send
// both as \u escapes; they are refused as input (a 400 naming the field) rather than found by the
// database after the work, or silently replaced.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (text: string): boolean => !text.includes('\u0000') && !LONE_SURROGATE.test(text);

export const UNSTORABLE_TEXT_MESSAGE =
  'contains characters that cannot be stored (a NUL or a broken Unicode character)';
