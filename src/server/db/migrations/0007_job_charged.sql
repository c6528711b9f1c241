-- Jobs queued before this migration were all charged their full cost.
ALTER TABLE "jobs" ADD COLUMN "charged" integer;--> statement-breakpoint
UPDATE "jobs" SET "charged" = "cost";--> statement-breakpoint
ALTER TABLE "jobs" ALTER COLUMN "charged" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_charged_within_cost" CHECK ("jobs"."charged" >= 0 and "jobs"."charged" <= "jobs"."cost");
