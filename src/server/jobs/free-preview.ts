// Users pay only for real results (decision 020): a job the labelled demo serves is a free
// preview. It is queued with nothing charged, and a paid job that the demo ends up serving (the
// routing changed between queueing and running) is refunded when it finishes.

/** Whether `provider` (a job's recorded provider, or the one that served it) gives free previews. */
export const isFreePreview = (provider: string): boolean => provider === 'demo';

/** What queueing a job of this cost on this provider takes from the balance. */
export const chargeFor = (provider: string, cost: number): number => (isFreePreview(provider) ? 0 : cost);
