// The second step of deleting from My Creations (a creation, a batch): what goes for good, in place
// of the card's actions, with the deletion in red and a way to keep it.
import type { ReactNode } from 'react';

export function DeleteConfirmation({
  children,
  deleting,
  onDelete,
  onKeep,
}: {
  /** What is deleted and what stays (the token history). */
  children: ReactNode;
  deleting: boolean;
  onDelete: () => void;
  onKeep: () => void;
}) {
  return (
    <section className="pp-creation__confirm" aria-label="Confirm deletion">
      <p>{children}</p>
      <div className="pp-creation__actions">
        <button
          type="button"
          className="pp-button pp-button--danger pp-button--sm"
          disabled={deleting}
          onClick={onDelete}
        >
          Delete for good
        </button>
        <button type="button" className="pp-button pp-button--secondary pp-button--sm" onClick={onKeep}>
          Keep it
        </button>
      </div>
    </section>
  );
}
