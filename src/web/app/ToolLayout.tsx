import { Menu, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { MENU } from '../../contract/routes';
import { ICONS } from '../components/icons';
import { SupportFooterLink } from '../components/SupportText';
import { TokenBalance } from '../components/TokenBalance';
import { Wordmark } from '../components/Wordmark';
import { EmailVerifiedNotice } from '../features/auth/EmailVerifiedNotice';
import { VerifiedElsewhereNotice } from '../features/auth/VerifiedElsewhereNotice';
import { NavLink, Outlet, useLocation } from '../lib/router';
import { DESKTOP_QUERY, useMediaQuery } from '../lib/use-media-query';
import { JobToasts } from './JobToasts';

const SIDEBAR_ID = 'app-sidebar';

type FocusAfterClose = 'toggle' | 'main';

/**
 * Shell of the tool pages, /tokens and /user-settings: a fixed sidebar on desktop; on phones a top bar
 * with a hamburger that slides the same sidebar in over the page.
 */
export function ToolLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const location = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const navRef = useRef<HTMLElement>(null);
  const mainRef = useRef<HTMLElement>(null);

  const closeMenu = useCallback((focusAfter: FocusAfterClose) => {
    setMenuOpen(false);
    const target = focusAfter === 'toggle' ? toggleRef.current : mainRef.current;
    // Wait a frame so `inert` is lifted from <main> before it takes focus.
    requestAnimationFrame(() => target?.focus({ preventScroll: focusAfter === 'toggle' }));
  }, []);

  // While open: Escape closes, the page behind does not scroll, focus starts at the first menu item.
  useEffect(() => {
    if (!menuOpen) return;
    navRef.current?.querySelector<HTMLElement>('a')?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') closeMenu('toggle');
    };
    document.addEventListener('keydown', onKeyDown);
    document.documentElement.classList.add('pp-scroll-locked');
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.documentElement.classList.remove('pp-scroll-locked');
    };
  }, [menuOpen, closeMenu]);

  // Growing the window to desktop width leaves no overlay behind.
  useEffect(() => {
    if (isDesktop) setMenuOpen(false);
  }, [isDesktop]);

  const overlayShown = menuOpen && !isDesktop;

  return (
    <div className="pp-app" data-menu-open={overlayShown}>
      <header className="pp-app-header">
        <div className="pp-mobile-bar">
          <Wordmark onNavigate={() => setMenuOpen(false)} />
          <div className="pp-mobile-bar__end">
            {isDesktop ? null : <TokenBalance compact />}
            <button
              ref={toggleRef}
              type="button"
              className="pp-icon-button pp-menu-toggle"
              data-testid="menu-toggle"
              aria-label={menuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={menuOpen}
              aria-controls={SIDEBAR_ID}
              onClick={() => (menuOpen ? closeMenu('toggle') : setMenuOpen(true))}
            >
              {menuOpen ? <X size={22} aria-hidden="true" /> : <Menu size={22} aria-hidden="true" />}
            </button>
          </div>
        </div>

        <div id={SIDEBAR_ID} className="pp-sidebar" data-testid="sidebar" data-open={menuOpen}>
          <div className="pp-sidebar__brand">
            <Wordmark />
          </div>
          <nav ref={navRef} className="pp-sidebar__nav" aria-label="Main menu">
            <ul className="pp-menu">
              {MENU.map((item) => {
                const Icon = ICONS[item.icon];
                return (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      end
                      className="pp-menu__link"
                      onClick={() => {
                        if (!menuOpen) return;
                        // Another page: the navigation focuses its heading (RouteFocus); this page: <main>.
                        if (item.to === location.pathname) closeMenu('main');
                        else setMenuOpen(false);
                      }}
                    >
                      <Icon className="pp-menu__icon" size={20} aria-hidden="true" />
                      <span>{item.label}</span>
                    </NavLink>
                  </li>
                );
              })}
            </ul>
          </nav>
          {isDesktop ? (
            <div className="pp-sidebar__footer">
              <TokenBalance />
            </div>
          ) : null}
        </div>
      </header>

      {/* Pointer shortcut only: from the keyboard, Escape and the toggle close the menu. */}
      {overlayShown ? (
        <div
          className="pp-menu-overlay"
          data-testid="menu-overlay"
          aria-hidden="true"
          onClick={() => closeMenu('toggle')}
        />
      ) : null}

      <div className="pp-app-content" inert={overlayShown}>
        <main id="main" ref={mainRef} tabIndex={-1} className="pp-app-main">
          <div className="pp-container">
            <EmailVerifiedNotice />
            <VerifiedElsewhereNotice />
            <Outlet />
          </div>
        </main>
        <footer className="pp-app-footer">
          <div className="pp-container">
            © {new Date().getFullYear()} Picture Palette
            <SupportFooterLink separator=" · " />
          </div>
        </footer>
      </div>
      <JobToasts />
    </div>
  );
}
