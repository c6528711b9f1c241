/** First focusable element on every screen; jumps past the navigation to <main id="main">. */
export function SkipLink() {
  return (
    <a className="pp-skip-link" href="#main">
      Skip to content
    </a>
  );
}
