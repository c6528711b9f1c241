// The batches this browser started (issue 54): a tool page opened from the menu goes back to the
// latest batch of its tool only when this browser made it. A batch made through the API, or on
// another device, is still in My Creations, which opens it by its address (?batch=<id>).
// Kept in localStorage (shared by the tabs, kept across visits), newest last, at most KEPT ids.

const KEY = 'pp-batches-started-here';
const KEPT = 50;

function read(): string[] {
  try {
    const ids: unknown = JSON.parse(window.localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return []; // storage off or unreadable: nothing is known to be from here
  }
}

/** Notes a batch this page has just made. */
export function rememberBatchStartedHere(batchId: string): void {
  const ids = [...read().filter((id) => id !== batchId), batchId].slice(-KEPT);
  try {
    window.localStorage.setItem(KEY, JSON.stringify(ids));
  } catch {
    /* storage off or full: the page then does not reopen it by itself */
  }
}

/** Whether this browser made the batch. */
export const batchStartedHere = (batchId: string): boolean => read().includes(batchId);
