/**
 * Back to the top of the landing page, where the sign-in form is. Focus follows (without a second
 * jump) so that keyboard users land where they were sent.
 */
export function scrollToTop() {
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  window.scrollTo({ top: 0, behavior: reduceMotion ? 'auto' : 'smooth' });
  document
    .querySelector<HTMLElement>('.pp-hero__auth input, .pp-hero__auth button, .pp-hero__auth a')
    ?.focus({ preventScroll: true });
}
