import { useEffect, useLayoutEffect, useRef } from 'react';
import { useLocation } from '../lib/router';

/** How long a page may take to show its heading (a page waiting for its data) before we give up. */
const HEADING_WAIT_MS = 3000;

/** The page's main heading: the h1 in <main>, else the first h1 (pages outside the tool layout). */
const pageHeading = (): HTMLElement | null =>
  document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');

/**
 * After a client-side navigation to another page (not on the first load), focus moves to the new
 * page's h1, as a screen reader expects of a page change: the next Tab starts in the page, not in the
 * sidebar (issue 38). The heading gets tabIndex -1; a mouse navigation shows no ring on it
 * (base.css: programmatic focus targets). A heading that comes later (a page waiting for its data) is
 * focused when it appears, unless the user has moved focus meanwhile. A page that focuses something
 * itself as it opens keeps that focus.
 */
export function RouteFocus() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  // Where focus was when the new page went in, before its effects ran: the clicked link when it is
  // in the shell (the sidebar), else nothing (it went out with the old page).
  const focusedAtCommit = useRef<{ pathname: string; element: Element | null } | null>(null);

  useLayoutEffect(() => {
    focusedAtCommit.current = { pathname, element: document.activeElement };
  }, [pathname]);

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const focusedAtNavigation = document.activeElement;
    // The page put focus somewhere of its choosing as it opened (the landing page's email field for
    // "/#sign-in"): that is where it stays.
    const atCommit = focusedAtCommit.current?.pathname === pathname ? focusedAtCommit.current.element : null;
    if (focusedAtNavigation !== atCommit && focusedAtNavigation !== document.body) return;
    const userMovedOn = () =>
      document.activeElement !== focusedAtNavigation && document.activeElement !== document.body;

    const tryFocus = (): boolean => {
      const heading = pageHeading();
      if (!heading) return false;
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
      return document.activeElement === heading;
    };
    if (tryFocus()) return;

    // Not there yet (or inside an inert region being lifted): try again as the page changes.
    const observer = new MutationObserver(() => {
      if (userMovedOn() || tryFocus()) stop();
    });
    const timer = window.setTimeout(() => stop(), HEADING_WAIT_MS);
    const stop = () => {
      observer.disconnect();
      window.clearTimeout(timer);
    };
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['inert'] });
    return stop;
  }, [pathname]);

  return null;
}
