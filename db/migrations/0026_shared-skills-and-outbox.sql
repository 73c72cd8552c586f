CREATE TABLE "skill_repo_bundles" (
	"seq" serial PRIMARY KEY NOT NULL,
	"head" varchar(40) NOT NULL,
	"full" boolean DEFAULT false NOT NULL,
	"bundle" "bytea" NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mails" ADD COLUMN "via" varchar(8);--> statement-breakpoint
ALTER TABLE "mails" ADD CONSTRAINT "mails_via" CHECK ("mails"."via" in ('smtp', 'outbox'));--> statement-breakpoint
-- hand-written (shared-skills-and-outbox): the new table notifies its changes like every other (read-cache test)
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.skill_repo_bundles FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();--> statement-breakpoint
-- a bundle is a compressed pack already: stored out of line without a second compression
ALTER TABLE "skill_repo_bundles" ALTER COLUMN "bundle" SET STORAGE EXTERNAL;
