import { CircleAlert, CircleCheck } from 'lucide-react';
import { SupportText } from './SupportText';

export type FormMessageValue = {
  tone: 'error' | 'success';
  text: string;
  /** The failed request's reference (a 5xx answer's), for the support link's mail. */
  reference?: string | null;
};

type Props = {
  message: FormMessageValue | null;
  id?: string;
  /** The account cards keep their own class name; both are styled alike (accounts.css). */
  className?: string;
  testId?: string;
  /** false: the line is read with its field (aria-describedby) but not announced as it changes. */
  live?: boolean;
};

/**
 * One status line under a form or button: an error or a confirmation with its icon. The element stays
 * in the page while empty, so that screen readers announce each new message (aria-live).
 */
export function FormMessage({ message, id, className = 'pp-form-message', testId, live = true }: Props) {
  return (
    <p id={id} className={className} data-tone={message?.tone} data-testid={testId} aria-live={live ? 'polite' : 'off'}>
      {message ? (
        <>
          {message.tone === 'error' ? (
            <CircleAlert size={18} aria-hidden="true" />
          ) : (
            <CircleCheck size={18} aria-hidden="true" />
          )}
          <span>
            <SupportText text={message.text} reference={message.reference} />
          </span>
        </>
      ) : null}
    </p>
  );
}
