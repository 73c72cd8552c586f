CREATE TABLE "mails" (
	"id" serial PRIMARY KEY NOT NULL,
	"recipient" varchar(254) NOT NULL,
	"subject" text NOT NULL,
	"action" varchar(64) NOT NULL,
	"status" varchar(8) DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"raw" "bytea",
	"sending_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp (3) with time zone,
	CONSTRAINT "mails_status" CHECK ("mails"."status" in ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"title" varchar(255),
	"url" text NOT NULL,
	"description" text NOT NULL,
	"language" varchar(35),
	"index" integer DEFAULT 0 NOT NULL,
	"place" varchar(16),
	CONSTRAINT "pages_place" CHECK ("pages"."place" in ('footer', 'event'))
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"app_name" varchar(255) DEFAULT 'Open Event' NOT NULL,
	"tagline" varchar(255),
	"frontend_url" text,
	"support_url" text,
	"facebook_url" text,
	"twitter_url" text,
	"instagram_url" text,
	"github_url" text,
	"youtube_url" text,
	"large_image_width" integer DEFAULT 1300 NOT NULL,
	"large_image_height" integer DEFAULT 500 NOT NULL,
	"thumbnail_image_width" integer DEFAULT 500 NOT NULL,
	"thumbnail_image_height" integer DEFAULT 200 NOT NULL,
	"icon_image_width" integer DEFAULT 75 NOT NULL,
	"icon_image_height" integer DEFAULT 30 NOT NULL,
	"image_keep_aspect" boolean DEFAULT true NOT NULL,
	"storage_place" varchar(8) DEFAULT 'local' NOT NULL,
	"s3_endpoint" text,
	"s3_bucket" varchar(63),
	"s3_region" varchar(64),
	"s3_access_key" varchar(255),
	"s3_secret_key" varchar(255),
	"email_service" varchar(8),
	"email_from" varchar(254),
	"email_from_name" varchar(255),
	"smtp_host" varchar(255),
	"smtp_port" integer,
	"smtp_username" varchar(255),
	"smtp_password" varchar(255),
	"smtp_encryption" varchar(8) DEFAULT 'none' NOT NULL,
	CONSTRAINT "settings_single_row" CHECK ("settings"."id" = 1),
	CONSTRAINT "settings_storage_place" CHECK ("settings"."storage_place" in ('local', 's3')),
	CONSTRAINT "settings_email_service" CHECK ("settings"."email_service" in ('smtp')),
	CONSTRAINT "settings_smtp_encryption" CHECK ("settings"."smtp_encryption" in ('none', 'ssl', 'tls'))
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"identifier" varchar(36) NOT NULL,
	"amount" numeric(12, 2) DEFAULT 0 NOT NULL,
	"status" varchar(16) DEFAULT 'initializing' NOT NULL,
	"payment_mode" varchar(16) DEFAULT 'free' NOT NULL,
	"attendees" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"completed_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "orders_status" CHECK ("orders"."status" in ('initializing', 'pending', 'placed', 'completed', 'cancelled', 'expired')),
	CONSTRAINT "orders_payment_mode" CHECK ("orders"."payment_mode" in ('free', 'stripe', 'paypal', 'bank', 'cheque', 'onsite', 'omise', 'alipay', 'paytm', 'invoice')),
	CONSTRAINT "orders_amount" CHECK ("orders"."amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mails_sent_at_index" ON "mails" USING btree ("sent_at");--> statement-breakpoint
CREATE INDEX "pages_place_index" ON "pages" USING btree ("place","index");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_identifier_unique" ON "orders" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "orders_event_index" ON "orders" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_user_index" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
-- The settings record always exists: every read and PATCH targets id 1.
INSERT INTO "settings" ("id") VALUES (1) ON CONFLICT DO NOTHING;
