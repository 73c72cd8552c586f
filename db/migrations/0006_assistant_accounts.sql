ALTER TABLE "users" ADD COLUMN "assistant_role" varchar(16) DEFAULT 'user' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "stores" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_login_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_assistant_role" CHECK ("users"."assistant_role" in ('user', 'reviewer', 'operator'));