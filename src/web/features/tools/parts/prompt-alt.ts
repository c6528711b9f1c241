/** Alt text of result image n of a prompt tool: what it is and the prompt it came from. */
export const promptAlt = (what: string) => (n: number, sent: Record<string, unknown>) =>
  `${what} ${n}: ${typeof sent.prompt === 'string' ? sent.prompt : ''}`.trim();
