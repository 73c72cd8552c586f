ALTER TABLE "settings" DROP CONSTRAINT "settings_storage_place";--> statement-breakpoint
ALTER TABLE "settings" DROP CONSTRAINT "settings_email_service";--> statement-breakpoint
ALTER TABLE "settings" DROP CONSTRAINT "settings_smtp_encryption";--> statement-breakpoint
ALTER TABLE "logins" DROP CONSTRAINT "logins_end_reason";--> statement-breakpoint
ALTER TABLE "settings" ALTER COLUMN "smtp_encryption" SET DATA TYPE varchar(16);--> statement-breakpoint
ALTER TABLE "settings" ALTER COLUMN "smtp_encryption" SET DEFAULT 'none';--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_blocked" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_profile_public" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_sales_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_marketer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "language_prefrence" varchar(35);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "company" varchar(255);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "billing_contact_name" varchar(255);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "billing_phone" varchar(64);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "billing_country" varchar(255);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "billing_state" varchar(255);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "billing_city" varchar(255);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "billing_address" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "billing_zip_code" varchar(64);--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "billing_tax_info" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "billing_additional_info" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "app_environment" varchar(16) DEFAULT 'production' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "static_domain" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "order_expiry_time" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "start_pg_enabled" varchar(8) DEFAULT 'default' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "start_pg_event_id" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "analytics_key" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "google_url" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "weblate_url" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "patreon_url" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "gitter_url" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "telegram_url" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "android_app_url" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "web_app_url" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "rocket_chat_url" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "cookie_policy_link" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_logo" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "cookie_policy" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "rocket_chat_registration_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "gs_key" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "gs_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "gs_bucket_name" varchar(222);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "google_client_id" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "google_client_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "fb_client_id" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "fb_client_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "tw_consumer_key" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "tw_consumer_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "in_client_id" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "in_client_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "paypal_mode" varchar(16);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "paypal_client" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "paypal_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "paypal_sandbox_client" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "paypal_sandbox_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "stripe_mode" varchar(16);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "stripe_client_id" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "stripe_secret_key" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "stripe_publishable_key" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "stripe_test_client_id" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "stripe_test_secret_key" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "stripe_test_publishable_key" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "omise_mode" varchar(16);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "omise_test_public" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "omise_test_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "omise_live_public" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "omise_live_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "paytm_mode" varchar(16);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "paytm_live_merchant" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "paytm_live_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "paytm_sandbox_merchant" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "paytm_sandbox_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "alipay_secret_key" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "alipay_publishable_key" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "is_paypal_activated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "is_stripe_activated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "is_omise_activated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "is_paytm_activated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "is_alipay_activated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "is_billing_paypal_activated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "sendgrid_key" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "invoice_sending_day" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "invoice_sending_timezone" varchar(64) DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_contact_name" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_company" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_state" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_country" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_city" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_phone" varchar(64);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_email" varchar(254);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_paypal_email" varchar(254);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_zip" varchar(64);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_tax_info" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_address" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "admin_billing_additional_info" text;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "is_google_recaptcha_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "google_recaptcha_site" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "google_recaptcha_secret" varchar(255);--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "logo_size" integer DEFAULT 1000 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "image_size" integer DEFAULT 10000 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "slide_size" integer DEFAULT 20000 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_app_environment" CHECK ("settings"."app_environment" in ('development', 'staging', 'production'));--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_start_pg_enabled" CHECK ("settings"."start_pg_enabled" in ('default', 'event'));--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_payment_modes" CHECK ("settings"."stripe_mode" in ('debug', 'production') and "settings"."paypal_mode" in ('sandbox', 'live') and "settings"."omise_mode" in ('test', 'live') and "settings"."paytm_mode" in ('test', 'live'));--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_storage_place" CHECK ("settings"."storage_place" in ('local', 's3', 'gs'));--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_email_service" CHECK ("settings"."email_service" in ('disable', 'smtp', 'sendgrid'));--> statement-breakpoint
ALTER TABLE "settings" ADD CONSTRAINT "settings_smtp_encryption" CHECK ("settings"."smtp_encryption" in ('none', 'no-encryption', 'ssl', 'tls', 'tls-optional'));--> statement-breakpoint
ALTER TABLE "logins" ADD CONSTRAINT "logins_end_reason" CHECK ("logins"."end_reason" in ('logout', 'reuse', 'password', 'deleted', 'blocked'));