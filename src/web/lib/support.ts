// Where support is (issue 57): the spec's "Please contact support" sentences stay word for word, and
// their "contact support" links to this server's support address (SUPPORT_EMAIL, from GET
// /api/config), with the reference of the failed request in the mail when there is one.

/** The words of the spec's sentences that become the link. */
export const SUPPORT_PHRASE = 'contact support';

/** A mailto link to `email`; the reference (a 5xx answer's X-Request-Id) goes in the subject and body. */
export function supportMailto(email: string, reference?: string | null): string {
  const params = new URLSearchParams({
    subject: reference ? `Picture Palette support (reference ${reference})` : 'Picture Palette support',
  });
  if (reference) params.set('body', `Reference: ${reference}\n\n`);
  // Mail clients read "+" as itself, not a space.
  return `mailto:${email}?${params.toString().replace(/\+/g, '%20')}`;
}
