import { LogIn } from 'lucide-react';
import { useId } from 'react';
import { Link } from '../lib/router';
import { SIGN_IN_LINK } from '../lib/sign-in-link';

/** What a page that needs an account shows a visitor: why, and the way to the sign-in form. */
export function SignInPromptCard({ title, text, action }: { title: string; text: string; action: string }) {
  const titleId = useId();
  return (
    <section className="pp-card pp-card--center" aria-labelledby={titleId}>
      <span className="pp-auth-card__badge">
        <LogIn size={26} aria-hidden="true" />
      </span>
      <h2 id={titleId} className="pp-card__title">
        {title}
      </h2>
      <p className="pp-card__text">{text}</p>
      <Link to={SIGN_IN_LINK} className="pp-button pp-button--primary">
        {action}
      </Link>
    </section>
  );
}
