CREATE TABLE "account_tokens" (
	"token_hash" "bytea" PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" varchar(16) NOT NULL,
	"email" varchar(254) NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "account_tokens_purpose" CHECK ("account_tokens"."purpose" in ('verify-email', 'reset-password'))
);
--> statement-breakpoint
CREATE TABLE "logins" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"ended_at" timestamp (3) with time zone,
	"end_reason" varchar(16),
	CONSTRAINT "logins_end_reason" CHECK ("logins"."end_reason" in ('logout', 'reuse', 'password', 'deleted'))
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"login_id" uuid NOT NULL,
	"parent_id" bigint,
	"token_hash" "bytea" NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"retired_by" bigint,
	CONSTRAINT "refresh_tokens_token_hash_key" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "public_name" varchar(255);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "was_registered_with_order" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "token_generation" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "logins" ADD CONSTRAINT "logins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_login_id_logins_id_fk" FOREIGN KEY ("login_id") REFERENCES "public"."logins"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_parent_id_refresh_tokens_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."refresh_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_tokens_user_id_idx" ON "account_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "account_tokens_expires_at_idx" ON "account_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "logins_user_id_idx" ON "logins" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "logins_expires_at_idx" ON "logins" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "refresh_tokens_login_id_idx" ON "refresh_tokens" USING btree ("login_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_parent_id_idx" ON "refresh_tokens" USING btree ("parent_id");--> statement-breakpoint
-- Access tokens name their login (claim `sid`), and the read cache memoizes the check of a token's account
-- and login: ending a login must reach every API process at once (migration 0010). Only that notifies:
-- creating logins, moving their expiry and deleting expired ones change nothing a memo holds, and every
-- login and refresh does them. refresh_tokens and account_tokens have no trigger: no read serves them.
-- A row trigger that fires only when a login ends: ending one that has ended (a repeated logout) changes
-- nothing and must not empty every process's cache. PostgreSQL delivers one notification per transaction
-- however many rows end.
CREATE TRIGGER oe_change AFTER UPDATE OF ended_at ON logins FOR EACH ROW
  WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL) EXECUTE FUNCTION oe_notify_change();
