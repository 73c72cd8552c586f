CREATE TABLE "attendees" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"order_id" integer,
	"ticket_id" integer,
	"user_id" integer,
	"firstname" varchar(255),
	"lastname" varchar(255),
	"email" varchar(254),
	"city" varchar(255),
	"state" varchar(255),
	"country" varchar(255),
	"address" varchar(1024),
	"job_title" varchar(255),
	"phone" varchar(64),
	"company" varchar(255),
	"tax_business_info" varchar(1024),
	"billing_address" varchar(1024),
	"home_address" varchar(1024),
	"shipping_address" varchar(1024),
	"work_address" varchar(1024),
	"work_phone" varchar(64),
	"website" varchar(2048),
	"blog" varchar(2048),
	"twitter" varchar(2048),
	"facebook" varchar(2048),
	"github" varchar(2048),
	"instagram" varchar(2048),
	"linkedin" varchar(2048),
	"gender" varchar(255),
	"age_group" varchar(255),
	"birth_date" timestamp (3) with time zone,
	"pdf_url" text,
	"checkin_times" text,
	"checkout_times" text,
	"is_checked_in" boolean DEFAULT false NOT NULL,
	"same_as_buyer" boolean DEFAULT false NOT NULL,
	"accept_receive_emails" boolean DEFAULT false NOT NULL,
	"accept_video_recording" boolean DEFAULT false NOT NULL,
	"accept_share_details" boolean DEFAULT false NOT NULL,
	"complex_field_values" jsonb,
	"is_consent_of_refund_policy" boolean DEFAULT false NOT NULL,
	"native_language" varchar(255),
	"fluent_language" varchar(255),
	"home_wiki" varchar(255),
	"is_consent_form_field" boolean DEFAULT false NOT NULL,
	"is_consent_form_field_photo" boolean DEFAULT false NOT NULL,
	"is_consent_form_field_email" boolean DEFAULT false NOT NULL,
	"wiki_scholarship" varchar(255),
	"tag_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "speakers_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"announcement" text,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"soft_ends_at" timestamp (3) with time zone,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"privacy" varchar(16) DEFAULT 'public' NOT NULL,
	"hash" varchar(255),
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "speakers_calls_privacy" CHECK ("speakers_calls"."privacy" in ('public', 'private')),
	CONSTRAINT "speakers_calls_period" CHECK ("speakers_calls"."ends_at" > "speakers_calls"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "stripe_authorizations" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"stripe_publishable_key" varchar(255)
);
--> statement-breakpoint
CREATE TABLE "taxes" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" varchar(255),
	"rate" double precision,
	"tax_id" varchar(255),
	"country" varchar(255),
	"registered_company" varchar(255),
	"contact_name" varchar(255),
	"email" varchar(255),
	"phone" varchar(64),
	"address" varchar(1024),
	"city" varchar(255),
	"state" varchar(255),
	"zip" varchar(32),
	"invoice_footer" text,
	"should_send_invoice" boolean DEFAULT false NOT NULL,
	"is_invoice_sent" boolean DEFAULT false NOT NULL,
	"is_tax_included_in_price" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "taxes_rate" CHECK ("taxes"."rate" between 0 and 100)
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"type" varchar(16) DEFAULT 'free' NOT NULL,
	"description" text,
	"price" numeric(12, 2),
	"quantity" integer,
	"min_order" integer,
	"max_order" integer,
	"min_price" numeric(12, 2),
	"max_price" numeric(12, 2),
	"position" integer,
	"is_description_visible" boolean DEFAULT true NOT NULL,
	"is_hidden" boolean DEFAULT false NOT NULL,
	"is_fee_absorbed" boolean DEFAULT false NOT NULL,
	"sales_starts_at" timestamp (3) with time zone NOT NULL,
	"sales_ends_at" timestamp (3) with time zone NOT NULL,
	"form_id" varchar(255),
	"badge_id" varchar(255),
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "tickets_type" CHECK ("tickets"."type" in ('free', 'paid', 'donation')),
	CONSTRAINT "tickets_sales_period" CHECK ("tickets"."sales_ends_at" > "tickets"."sales_starts_at")
);
--> statement-breakpoint
ALTER TABLE "attendees" ADD CONSTRAINT "attendees_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendees" ADD CONSTRAINT "attendees_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendees" ADD CONSTRAINT "attendees_ticket_id_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."tickets"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendees" ADD CONSTRAINT "attendees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speakers_calls" ADD CONSTRAINT "speakers_calls_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_authorizations" ADD CONSTRAINT "stripe_authorizations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "taxes" ADD CONSTRAINT "taxes_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tickets" ADD CONSTRAINT "tickets_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendees_event_id_idx" ON "attendees" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "attendees_order_id_idx" ON "attendees" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "attendees_ticket_id_idx" ON "attendees" USING btree ("ticket_id");--> statement-breakpoint
CREATE UNIQUE INDEX "speakers_calls_event_id_key" ON "speakers_calls" USING btree ("event_id") WHERE "speakers_calls"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "stripe_authorizations_event_id_key" ON "stripe_authorizations" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "taxes_event_id_key" ON "taxes" USING btree ("event_id") WHERE "taxes"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "tickets_event_id_idx" ON "tickets" USING btree ("event_id","id");--> statement-breakpoint
CREATE VIEW "public"."order_tickets" AS (select distinct "attendees"."order_id" as order_id, "attendees"."ticket_id" as ticket_id from "attendees"
  where "attendees"."deleted_at" is null and "attendees"."order_id" is not null and "attendees"."ticket_id" is not null);--> statement-breakpoint
-- hand-written: the change trigger of the new tables (migration 0010)
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.tickets FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.taxes FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.speakers_calls FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.stripe_authorizations FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.attendees FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
