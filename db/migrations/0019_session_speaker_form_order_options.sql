ALTER TABLE "custom_forms" ADD COLUMN "is_complex" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "custom_forms" ADD COLUMN "is_allow_edit" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "custom_forms" ADD COLUMN "form_id" varchar(255);--> statement-breakpoint
ALTER TABLE "custom_forms" ADD COLUMN "min" integer DEFAULT 0;--> statement-breakpoint
ALTER TABLE "custom_forms" ADD COLUMN "max" integer DEFAULT 10;--> statement-breakpoint
ALTER TABLE "custom_forms" ADD COLUMN "translations" jsonb;--> statement-breakpoint
ALTER TABLE "custom_forms" ADD COLUMN "main_language" varchar(35) DEFAULT 'en';--> statement-breakpoint
ALTER TABLE "microlocations" ADD COLUMN "is_chat_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "microlocations" ADD COLUMN "is_global_event_room" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "website" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "twitter" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "facebook" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "github" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "gitlab" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "linkedin" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "instagram" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "mastodon" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "slides" jsonb;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "complex_field_values" jsonb;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "send_email" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "is_locked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "is_mail_sent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_modified_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "speakers" ADD COLUMN "location" varchar(255);--> statement-breakpoint
ALTER TABLE "speakers" ADD COLUMN "order" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "speakers" ADD COLUMN "is_email_overridden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "speakers" ADD COLUMN "complex_field_values" jsonb;--> statement-breakpoint
ALTER TABLE "speakers" ADD COLUMN "speaker_positions" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "company" varchar(255);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tax_business_info" varchar(255);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "address" varchar(1024);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "city" varchar(255);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "state" varchar(255);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "country" varchar(255);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "zipcode" varchar(32);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "is_billing_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "exp_month" varchar(2);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "exp_year" varchar(4);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "brand" varchar(32);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "last4" varchar(4);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "paid_via" varchar(32);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tickets_pdf_url" text;--> statement-breakpoint
-- hand-written (session_speaker_form_order_options)
CREATE FUNCTION oe_session_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.last_modified_at := now();
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER oe_session_touch BEFORE UPDATE ON public.sessions FOR EACH ROW EXECUTE FUNCTION oe_session_touch();
