ALTER TABLE "jobs" DROP CONSTRAINT "jobs_share_token_unique";--> statement-breakpoint
DROP INDEX "jobs_provider_ref_idx";--> statement-breakpoint
DROP INDEX "jobs_user_idempotency_key_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_share_token_unique" ON "jobs" USING btree ("share_token") WHERE "jobs"."share_token" is not null;--> statement-breakpoint
CREATE INDEX "jobs_provider_ref_idx" ON "jobs" USING btree ("provider_ref") WHERE "jobs"."provider_ref" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_user_idempotency_key_unique" ON "jobs" USING btree ("user_id","idempotency_key") WHERE "jobs"."idempotency_key" is not null;