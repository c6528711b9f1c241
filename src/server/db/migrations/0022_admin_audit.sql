-- Issue 57: the support console's audit log (decision 078), and the ledger reason `adjustment`
-- (tokens support took back; `grant` stays the tokens support gave).
CREATE TABLE "admin_audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"operator_id" text NOT NULL,
	"operator_name" text NOT NULL,
	"action" text NOT NULL,
	"target_user_id" text,
	"subject" text,
	"reason" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_audit_reason_not_blank" CHECK (length(trim("admin_audit"."reason")) > 0),
	CONSTRAINT "admin_audit_action_known" CHECK ("admin_audit"."action" in ('tokens', 'flags', 'refund', 'verification-mail', 'revoke-key', 'sign-out'))
);
--> statement-breakpoint
ALTER TABLE "ledger" DROP CONSTRAINT "ledger_reason_known";--> statement-breakpoint
CREATE INDEX "admin_audit_target_idx" ON "admin_audit" USING btree ("target_user_id","id");--> statement-breakpoint
ALTER TABLE "ledger" ADD CONSTRAINT "ledger_reason_known" CHECK ("ledger"."reason" in ('signup', 'purchase', 'job', 'refund', 'grant', 'adjustment'));