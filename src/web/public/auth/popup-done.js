// End of the Google sign-in popup: tell the tab that opened it how it went, then close.
// An external file (no inline script) so that a strict Content-Security-Policy allows it.
(() => {
  const params = new URLSearchParams(window.location.search);
  const ok = !window.location.search.includes('error');
  // better-auth appends its own ?error=<code>&error_description=... to our "?error=1".
  const codes = params.getAll('error').filter((value) => value && value !== '1');
  const error = ok ? null : params.get('error_description') || codes.at(-1) || null;

  // Other tabs (and an opener that lost its link to this window) re-check the session.
  try {
    window.localStorage.setItem('pp-auth-changed', String(Date.now()));
  } catch {
    // Storage unavailable: the opener still hears from postMessage below.
  }

  const opener = window.opener;
  if (opener && opener !== window) {
    try {
      opener.postMessage({ type: 'pp-auth', ok, error }, window.location.origin);
    } catch {
      // The opener navigated away or is cross-origin now: nothing to tell.
    }
    window.close();
    return;
  }
  // Opened without an opener (or the link was cut): carry on here.
  window.location.replace(ok ? '/text-to-pic' : '/');
})();
