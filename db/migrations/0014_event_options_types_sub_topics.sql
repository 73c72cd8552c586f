CREATE TABLE "event_sub_topics" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"slug" varchar(255) NOT NULL,
	"event_topic_id" integer NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "event_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"slug" varchar(255) NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "after_order_message" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "searchable_location_name" varchar(255);--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "public_stream_link" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "stream_loop" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "stream_autoplay" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "online" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_map_shown" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_oneclick_signup_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_sponsors_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_ticket_form_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_badges_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_cfs_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_videoroom_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_sessions_speakers_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_featured" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_promoted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_demoted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_chat_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_billing_info_mandatory" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_document_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "document_links" jsonb;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_announced" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_tax_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "can_pay_by_paypal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "can_pay_by_paytm" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "can_pay_by_stripe" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_stripe_linked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "can_pay_by_cheque" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "can_pay_by_invoice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "can_pay_by_bank" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "can_pay_by_omise" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "can_pay_by_alipay" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "can_pay_onsite" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "payment_country" varchar(255);--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "payment_currency" varchar(3) DEFAULT 'USD';--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "paypal_email" varchar(254);--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "cheque_details" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "invoice_details" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "bank_details" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "onsite_details" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "refund_policy" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "schedule_published_on" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "has_owner_info" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "owner_name" varchar(255);--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "owner_description" text;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "chat_room_name" varchar(255);--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "event_type_id" integer;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "event_sub_topic_id" integer;--> statement-breakpoint
ALTER TABLE "event_sub_topics" ADD CONSTRAINT "event_sub_topics_event_topic_id_event_topics_id_fk" FOREIGN KEY ("event_topic_id") REFERENCES "public"."event_topics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_sub_topics_event_topic_id_idx" ON "event_sub_topics" USING btree ("event_topic_id");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_event_type_id_event_types_id_fk" FOREIGN KEY ("event_type_id") REFERENCES "public"."event_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_event_sub_topic_id_event_sub_topics_id_fk" FOREIGN KEY ("event_sub_topic_id") REFERENCES "public"."event_sub_topics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_event_type_id_idx" ON "events" USING btree ("event_type_id");--> statement-breakpoint
CREATE INDEX "events_event_sub_topic_id_idx" ON "events" USING btree ("event_sub_topic_id");--> statement-breakpoint
-- hand-written: the change trigger of the new tables (migration 0010)
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.event_types FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.event_sub_topics FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
