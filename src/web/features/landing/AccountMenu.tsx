import { ChevronDown, LogOut, Settings, UserRound } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { ROUTES } from '../../../contract/routes';
import { Link } from '../../lib/router';
import { useAuth } from '../../lib/session/auth-context';

export const ACCOUNT_MENU_TEXT = {
  button: 'Account',
  signOut: 'Sign out',
  signOutFailed: 'Could not sign out. Try again.',
} as const;

/**
 * The landing top bar's account menu for a signed-in user: who is signed in, User Settings and
 * Sign out (the hero keeps its single "Picture Palette" button). A disclosure: Escape or a click
 * elsewhere closes it.
 */
export function AccountMenu() {
  const { status, user, signOut } = useAuth();
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);

  if (status !== 'signed-in') return null;

  async function onSignOut() {
    setBusy(true);
    setFailed(false);
    const done = await signOut();
    setBusy(false);
    if (!done) setFailed(true);
  }

  return (
    <div className="pp-account-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="pp-topbar__link pp-account-menu__button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((current) => !current)}
      >
        <UserRound size={18} aria-hidden="true" />
        {ACCOUNT_MENU_TEXT.button}
        <ChevronDown size={16} aria-hidden="true" />
      </button>
      <div id={menuId} className="pp-account-menu__panel" hidden={!open}>
        {user?.email ? <p className="pp-account-menu__email">Signed in as {user.email}</p> : null}
        <Link to={ROUTES.userSettings} className="pp-account-menu__item">
          <Settings size={18} aria-hidden="true" />
          User Settings
        </Link>
        <button type="button" className="pp-account-menu__item" disabled={busy} onClick={() => void onSignOut()}>
          <LogOut size={18} aria-hidden="true" />
          {ACCOUNT_MENU_TEXT.signOut}
        </button>
        {failed ? (
          <p className="pp-account-menu__error" role="alert">
            {ACCOUNT_MENU_TEXT.signOutFailed}
          </p>
        ) : null}
      </div>
    </div>
  );
}
