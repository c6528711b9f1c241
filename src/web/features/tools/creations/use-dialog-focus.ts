import { useEffect, useRef } from 'react';

/**
 * A viewer dialog's focus: its close button takes it on opening, Escape closes, and on closing it
 * goes back to whatever opened the dialog. Returns the ref for the close button.
 */
export function useDialogFocus(onClose: () => void) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const opener = document.activeElement;
    closeRef.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      if (opener instanceof HTMLElement) opener.focus();
    };
  }, [onClose]);
  return closeRef;
}
