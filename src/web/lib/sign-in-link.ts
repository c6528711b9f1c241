import { ROUTES } from '../../contract/routes';

/** The landing page's sign-in form as a link target: the page scrolls to it and focuses the email field. */
export const SIGN_IN_HASH = '#sign-in';
export const SIGN_IN_LINK = `${ROUTES.home}${SIGN_IN_HASH}`;
