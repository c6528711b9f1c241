ALTER TABLE "jobs" ADD COLUMN "queue_round" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_queue_round_idx" ON "jobs" USING btree ("queue_round");--> statement-breakpoint
CREATE INDEX "jobs_user_queue_round_idx" ON "jobs" USING btree ("user_id","queue_round");