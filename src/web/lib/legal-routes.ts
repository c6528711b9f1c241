/** The Terms of Service and Privacy Policy pages the sign-in form's note points to. */
export const LEGAL_ROUTES = { terms: '/terms', privacy: '/privacy' } as const;
