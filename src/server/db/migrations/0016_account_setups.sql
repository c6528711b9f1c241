CREATE TABLE "account_setups" (
	"user_id" text PRIMARY KEY NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_after" timestamp with time zone DEFAULT now() NOT NULL,
	"worker_id" uuid,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_setups" ADD CONSTRAINT "account_setups_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_setups_due_idx" ON "account_setups" USING btree ("run_after");--> statement-breakpoint
-- pg-boss is retired (decision 045): the account setups it still held, waiting, due for a retry or
-- taken by a process that has stopped, become rows here; then its schema goes. Both only where
-- pg-boss ran (a database made before this migration).
DO $$
BEGIN
  IF to_regclass('pgboss.job') IS NOT NULL THEN
    INSERT INTO "account_setups" ("user_id")
    SELECT DISTINCT "user"."id" FROM "pgboss"."job" JOIN "user" ON "user"."id" = "pgboss"."job"."data"->>'userId'
    WHERE "pgboss"."job"."name" = 'account-setup' AND "pgboss"."job"."state"::text IN ('created', 'retry', 'active')
    ON CONFLICT DO NOTHING;
  END IF;
END $$;--> statement-breakpoint
DROP SCHEMA IF EXISTS "pgboss" CASCADE;
