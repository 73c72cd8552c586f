ALTER TABLE "attendees" ADD COLUMN "is_registered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "attendees" ADD COLUMN "register_times" text;