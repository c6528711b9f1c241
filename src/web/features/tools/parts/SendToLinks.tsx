import { Send } from 'lucide-react';
import { sendToPath } from '../../../lib/creations/send-to';
import { Link } from '../../../lib/router';
import type { SendTarget } from '../send-targets';

/** Links that open another tool with this stored result as its image (nothing for images not stored here). */
export function SendToLinks({ url, targets }: { url: string; targets: readonly SendTarget[] }) {
  const links = targets.flatMap((target) => {
    const to = sendToPath(target.route, url);
    return to ? [{ ...target, to }] : [];
  });
  if (links.length === 0) return null;
  return (
    <ul className="pp-send-to" aria-label="Use this result in another tool">
      {links.map((link) => (
        <li key={link.route}>
          <Link className="pp-button pp-button--secondary pp-button--sm" to={link.to}>
            <Send size={14} aria-hidden="true" />
            {link.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
