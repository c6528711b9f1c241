import { ChevronDown, Send } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { sendToPath } from '../../../lib/creations/send-to';
import { Link } from '../../../lib/router';
import type { SendTarget } from '../send-targets';

const itemsOf = (menu: HTMLElement | null): HTMLElement[] =>
  Array.from(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);

type Props = {
  url: string;
  targets: readonly SendTarget[];
  /** Image n of several (names the button per image); null for a single result. */
  imageNumber?: number | null;
};

/**
 * "Send to …": a menu button (WAI-ARIA's menu button pattern) whose items open another tool with this
 * stored result as its image. Nothing for images not stored here. The card keeps one visible action
 * (Download) beside it, so it fits a phone's width (issue 38).
 *
 * Keys: Enter, Space or ArrowDown open it on the first item, ArrowUp on the last; in the menu the
 * arrows, Home and End move, Escape closes it and returns focus to the button, Tab closes it and moves on.
 */
export function SendToMenu({ url, targets, imageNumber = null }: Props) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  // The item to focus once the menu shows: 'first' or 'last'.
  const focusOnOpen = useRef<'first' | 'last'>('first');

  const links = targets.flatMap((target) => {
    const to = sendToPath(target.route, url);
    return to ? [{ ...target, to }] : [];
  });

  useEffect(() => {
    if (!open) return;
    const list = itemsOf(menuRef.current);
    (focusOnOpen.current === 'last' ? list.at(-1) : list[0])?.focus();
    // A press outside closes it (without taking focus anywhere).
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [open]);

  if (links.length === 0) return null;

  const openAt = (where: 'first' | 'last') => {
    focusOnOpen.current = where;
    setOpen(true);
  };

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) buttonRef.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowUp' ? 'last' : 'first');
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const list = itemsOf(menuRef.current);
    const at = list.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      list[(index + list.length) % list.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(at + 1);
      case 'ArrowUp':
        return move(at - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(list.length - 1);
      case 'Escape':
        event.preventDefault();
        // The page's own Escape handlers (an open overlay) are not this menu's.
        event.stopPropagation();
        return close(true);
      case 'Tab':
        // Focus moves on from the item as the browser decides; the menu just closes.
        return close(false);
      case ' ':
        // Space follows a link in a menu, as Enter does.
        event.preventDefault();
        (document.activeElement as HTMLElement | null)?.click();
        return;
      default:
        return;
    }
  };

  const name = imageNumber === null ? 'Send to another tool' : `Send to another tool (image ${imageNumber})`;

  return (
    <div ref={rootRef} className="pp-send-menu" data-open={open}>
      <button
        ref={buttonRef}
        type="button"
        className="pp-button pp-button--secondary pp-button--sm pp-send-menu__button"
        aria-label={name}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => (open ? close(true) : openAt('first'))}
        onKeyDown={onButtonKeyDown}
      >
        <Send size={16} aria-hidden="true" />
        <span className="pp-send-menu__text">Send to</span>
        <ChevronDown className="pp-send-menu__chevron" size={16} aria-hidden="true" />
      </button>
      <div
        ref={menuRef}
        id={menuId}
        role="menu"
        aria-label="Use this result in another tool"
        className="pp-send-menu__list"
        hidden={!open}
        onKeyDown={onMenuKeyDown}
      >
        {links.map((link) => (
          <Link
            key={link.route}
            role="menuitem"
            tabIndex={-1}
            className="pp-send-menu__item"
            to={link.to}
            onClick={() => setOpen(false)}
          >
            {link.label}
          </Link>
        ))}
      </div>
    </div>
  );
}
