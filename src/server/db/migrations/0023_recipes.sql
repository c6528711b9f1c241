CREATE TABLE "recipe_run_items" (
	"run_id" uuid NOT NULL,
	"item" integer NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"job_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recipe_run_items_run_id_item_pk" PRIMARY KEY("run_id","item"),
	CONSTRAINT "recipe_run_items_status_known" CHECK ("recipe_run_items"."status" in ('running', 'done', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "recipe_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"recipe_id" uuid,
	"name" text NOT NULL,
	"steps" jsonb NOT NULL,
	"batch_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recipes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"name" text NOT NULL,
	"steps" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "recipe_run_items" ADD CONSTRAINT "recipe_run_items_run_id_recipe_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."recipe_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipe_runs" ADD CONSTRAINT "recipe_runs_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipe_runs" ADD CONSTRAINT "recipe_runs_recipe_id_recipes_id_fk" FOREIGN KEY ("recipe_id") REFERENCES "public"."recipes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipe_runs" ADD CONSTRAINT "recipe_runs_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recipes" ADD CONSTRAINT "recipes_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recipe_run_items_running_idx" ON "recipe_run_items" USING btree ("run_id") WHERE "recipe_run_items"."status" = 'running';--> statement-breakpoint
CREATE INDEX "recipe_runs_user_idx" ON "recipe_runs" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "recipes_user_idx" ON "recipes" USING btree ("user_id","created_at");