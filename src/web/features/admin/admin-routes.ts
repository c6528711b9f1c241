// The support console's pages (issue 57). Apart from the pages so that the route tree (app/routes.tsx)
// names them without loading the console's chunk (nothing else here: this module is in every page's
// JavaScript); not among the contract's routes, so neither in the sitemap nor prerendered (server/pages).
export const ADMIN_ROUTES = {
  overview: '/admin',
  account: '/admin/accounts/:id',
  audit: '/admin/audit',
} as const;
