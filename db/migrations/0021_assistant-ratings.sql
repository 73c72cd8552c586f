CREATE TABLE "skill_country_usage" (
	"skill_id" integer NOT NULL,
	"country_code" varchar(2) NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "skill_country_usage_skill_id_country_code_pk" PRIMARY KEY("skill_id","country_code")
);
--> statement-breakpoint
CREATE TABLE "skill_device_usage" (
	"skill_id" integer NOT NULL,
	"device_type" varchar(100) NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "skill_device_usage_skill_id_device_type_pk" PRIMARY KEY("skill_id","device_type")
);
--> statement-breakpoint
CREATE TABLE "skill_reports" (
	"skill_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"feedback" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "skill_reports_skill_id_user_id_pk" PRIMARY KEY("skill_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "skill_votes" (
	"skill_id" integer NOT NULL,
	"voter" varchar(100) NOT NULL,
	"positive" boolean NOT NULL,
	"voted_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "skill_votes_skill_id_voter_pk" PRIMARY KEY("skill_id","voter")
);
--> statement-breakpoint
ALTER TABLE "skill_ratings" ADD COLUMN "stars_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "skill_ratings" ADD COLUMN "feedback_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "skill_country_usage" ADD CONSTRAINT "skill_country_usage_skill_id_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_device_usage" ADD CONSTRAINT "skill_device_usage_skill_id_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_reports" ADD CONSTRAINT "skill_reports_skill_id_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_reports" ADD CONSTRAINT "skill_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_votes" ADD CONSTRAINT "skill_votes_skill_id_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "skill_reports_user_id_idx" ON "skill_reports" USING btree ("user_id");--> statement-breakpoint
-- hand-written (assistant-ratings): the new tables notify their changes like every other (read-cache test)
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.skill_country_usage FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.skill_device_usage FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.skill_reports FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.skill_votes FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
