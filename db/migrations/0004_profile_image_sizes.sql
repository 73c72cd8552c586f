ALTER TABLE "settings" ADD COLUMN "profile_thumbnail_size" integer DEFAULT 500 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "profile_small_size" integer DEFAULT 50 NOT NULL;--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "profile_icon_size" integer DEFAULT 35 NOT NULL;