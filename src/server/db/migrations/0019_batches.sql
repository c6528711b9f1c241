CREATE TABLE "batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"tool" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batches_size_positive" CHECK ("batches"."size" > 0)
);
--> statement-breakpoint
DROP INDEX "jobs_user_active_idx";--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "batch_id" uuid;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "batch_item" integer;--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "source_name" text;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batches_user_idx" ON "batches" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_batch_item_unique" ON "jobs" USING btree ("batch_id","batch_item") WHERE "jobs"."batch_id" is not null;--> statement-breakpoint
CREATE INDEX "jobs_user_active_idx" ON "jobs" USING btree ("user_id","batch_id") WHERE "jobs"."status" in ('queued', 'running');