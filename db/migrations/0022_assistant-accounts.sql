ALTER TABLE "users" ADD COLUMN "assistant_settings" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "assistant_devices" jsonb DEFAULT '{}'::jsonb NOT NULL;