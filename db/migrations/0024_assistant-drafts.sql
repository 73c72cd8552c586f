CREATE TABLE "assistant_drafts" (
	"user_id" integer NOT NULL,
	"id" varchar(64) NOT NULL,
	"object" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assistant_drafts_user_id_id_pk" PRIMARY KEY("user_id","id")
);
--> statement-breakpoint
ALTER TABLE "assistant_drafts" ADD CONSTRAINT "assistant_drafts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assistant_drafts_modified_idx" ON "assistant_drafts" USING btree ("user_id","modified_at");--> statement-breakpoint
-- hand-written (assistant-drafts): the new tables notify their changes like every other (read-cache test)
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.assistant_drafts FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
