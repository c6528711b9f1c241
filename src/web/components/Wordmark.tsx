import { ROUTES } from '../../contract/routes';
import { Link } from '../lib/router';
import { LogoMark } from './LogoMark';

/** Logo and product name, linking home. */
export function Wordmark({ onNavigate }: { onNavigate?: () => void }) {
  return (
    <Link to={ROUTES.home} className="pp-wordmark" onClick={onNavigate}>
      <LogoMark />
      <span className="pp-wordmark__text">Picture Palette</span>
    </Link>
  );
}
