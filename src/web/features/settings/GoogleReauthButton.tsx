import { GOOGLE_REAUTH_TEXT, type GoogleReauth } from './use-google-reauth';

/** "Sign in with Google again", for a change the server will take only after a fresh Google sign-in. */
export function GoogleReauthButton({ google }: { google: GoogleReauth }) {
  return (
    <button
      type="button"
      className="pp-button pp-button--secondary"
      disabled={google.busy}
      onClick={() => void google.start()}
    >
      {GOOGLE_REAUTH_TEXT.button}
    </button>
  );
}
