ALTER TABLE "jobs" ADD COLUMN "share_token" text;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_share_token_unique" UNIQUE("share_token");