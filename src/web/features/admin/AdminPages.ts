// The console's one chunk (issue 57): its three pages load together, and only at /admin.
export { AdminAccountPage } from './AdminAccountPage';
export { AdminAuditPage } from './AdminAuditPage';
export { AdminOverviewPage } from './AdminOverviewPage';
