import { useSupportEmail } from '../lib/session/auth-context';
import { SUPPORT_PHRASE, supportMailto } from '../lib/support';

type Props = {
  text: string;
  /** The failed request's reference (its X-Request-Id), put in the mail. */
  reference?: string | null;
};

/**
 * A sentence as it is written, whose "contact support" (the spec's "Please contact support") is a
 * mailto link to this server's support address once it is known; any other sentence is plain text.
 */
export function SupportText({ text, reference }: Props) {
  const at = text.indexOf(SUPPORT_PHRASE);
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <SupportLink reference={reference}>{SUPPORT_PHRASE}</SupportLink>
      {text.slice(at + SUPPORT_PHRASE.length)}
    </>
  );
}

/** Its words, linked to the support address; the words alone until the address is known (or when there is none). */
export function SupportLink({ reference, children }: { reference?: string | null; children: string }) {
  const email = useSupportEmail();
  if (!email) return <>{children}</>;
  return <a href={supportMailto(email, reference)}>{children}</a>;
}

/**
 * A footer's way to support: "Contact support", a mailto link (after `separator`); nothing while the
 * address is unknown or unset.
 */
export function SupportFooterLink({ separator = '' }: { separator?: string }) {
  const email = useSupportEmail();
  if (!email) return null;
  return (
    <>
      {separator}
      <a href={supportMailto(email)}>Contact support</a>
    </>
  );
}
