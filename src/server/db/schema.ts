// The database schema (PostgreSQL dialect; runs on PGlite and on PostgreSQL alike).
// Migrations in ./migrations are generated from this file with `npm run db:generate`.
import { sql } from 'drizzle-orm';
import { boolean, check, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row naming this installation. Every process of a deployment reports the same id in
 * /api/health, which shows they share one database, and it survives restarts with the data.
 */
export const appInstance = pgTable(
  'app_instance',
  {
    singleton: boolean('singleton').primaryKey().default(true),
    instanceId: uuid('instance_id').notNull().defaultRandom(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('app_instance_single_row', sql`${t.singleton}`)],
);
