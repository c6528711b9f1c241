DROP INDEX "jobs_queue_round_idx";--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "run_after" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "jobs_queue_order_idx" ON "jobs" USING btree ("queue_round","created_at","id") WHERE "jobs"."status" = 'queued';--> statement-breakpoint
CREATE INDEX "jobs_started_round_idx" ON "jobs" USING btree ("queue_round") WHERE "jobs"."status" <> 'queued';