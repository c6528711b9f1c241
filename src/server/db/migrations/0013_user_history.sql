DROP INDEX "jobs_status_idx";--> statement-breakpoint
DROP INDEX "jobs_user_created_idx";--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "storage_used" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_user_active_idx" ON "jobs" USING btree ("user_id") WHERE "jobs"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "jobs_succeeded_idx" ON "jobs" USING btree ("tool","provider","finished_at") WHERE "jobs"."status" = 'succeeded';--> statement-breakpoint
CREATE INDEX "jobs_user_created_idx" ON "jobs" USING btree ("user_id","created_at","id");--> statement-breakpoint
-- profiles.storage_used follows every change to `files`: one update per statement and user (the
-- statement's rows, from its transition table), so an insert of several outputs, a job deleted with
-- its files by cascade and the retention sweep all count. A user's files are inserted only after
-- their profile exists (a tool call charges it first), so no file goes uncounted.
CREATE FUNCTION "files_count_storage_used"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "profiles" SET "storage_used" = "profiles"."storage_used" + "added"."bytes"
    FROM (SELECT "user_id", sum("size") AS "bytes" FROM "added_files" GROUP BY "user_id") AS "added"
    WHERE "profiles"."user_id" = "added"."user_id";
  ELSE
    UPDATE "profiles" SET "storage_used" = "profiles"."storage_used" - "removed"."bytes"
    FROM (SELECT "user_id", sum("size") AS "bytes" FROM "removed_files" GROUP BY "user_id") AS "removed"
    WHERE "profiles"."user_id" = "removed"."user_id";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "files_added_storage_used" AFTER INSERT ON "files" REFERENCING NEW TABLE AS "added_files"
  FOR EACH STATEMENT EXECUTE FUNCTION "files_count_storage_used"();--> statement-breakpoint
CREATE TRIGGER "files_removed_storage_used" AFTER DELETE ON "files" REFERENCING OLD TABLE AS "removed_files"
  FOR EACH STATEMENT EXECUTE FUNCTION "files_count_storage_used"();--> statement-breakpoint
UPDATE "profiles" SET "storage_used" = "used"."bytes"
FROM (SELECT "user_id", sum("size") AS "bytes" FROM "files" GROUP BY "user_id") AS "used"
WHERE "profiles"."user_id" = "used"."user_id";
