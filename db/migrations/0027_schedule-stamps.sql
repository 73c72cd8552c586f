CREATE TABLE "schedule_stamps" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"digest" text NOT NULL,
	"changed_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "schedule_stamps" ADD CONSTRAINT "schedule_stamps_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;