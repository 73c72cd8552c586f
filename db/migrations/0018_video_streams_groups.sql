CREATE TABLE "groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"about" text,
	"logo_url" text,
	"banner_url" text,
	"thumbnail_image_url" text,
	"social_links" jsonb,
	"is_promoted" boolean DEFAULT false NOT NULL,
	"follower_count" integer DEFAULT 0 NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "user_follow_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"group_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_streams" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_event_id" integer NOT NULL,
	"event_id" integer,
	"name" varchar(255) NOT NULL,
	"url" text NOT NULL,
	"password" varchar(255),
	"additional_information" text,
	"bg_img_url" text,
	"extra" jsonb,
	"is_chat_enabled" boolean DEFAULT false NOT NULL,
	"is_global_event_room" boolean DEFAULT false NOT NULL,
	"chat_room_name" text GENERATED ALWAYS AS (regexp_replace(name, '[^0-9a-zA-Z!]', '-', 'g') || '-' || id) STORED,
	CONSTRAINT "video_streams_event_is_owner" CHECK ("video_streams"."event_id" is null or "video_streams"."event_id" = "video_streams"."owner_event_id")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "group_id" integer;--> statement-breakpoint
ALTER TABLE "microlocations" ADD COLUMN "video_stream_id" integer;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_follow_groups" ADD CONSTRAINT "user_follow_groups_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_follow_groups" ADD CONSTRAINT "user_follow_groups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_streams" ADD CONSTRAINT "video_streams_owner_event_id_events_id_fk" FOREIGN KEY ("owner_event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_streams" ADD CONSTRAINT "video_streams_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "groups_user_id_idx" ON "groups" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "user_follow_groups_group_user_key" ON "user_follow_groups" USING btree ("group_id","user_id");--> statement-breakpoint
CREATE INDEX "user_follow_groups_user_id_idx" ON "user_follow_groups" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "video_streams_event_id_key" ON "video_streams" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "video_streams_owner_event_id_idx" ON "video_streams" USING btree ("owner_event_id");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "microlocations" ADD CONSTRAINT "microlocations_video_stream_id_video_streams_id_fk" FOREIGN KEY ("video_stream_id") REFERENCES "public"."video_streams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_group_id_idx" ON "events" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "microlocations_video_stream_id_idx" ON "microlocations" USING btree ("video_stream_id");--> statement-breakpoint
-- hand-written (video_streams_groups)
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.groups FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.user_follow_groups FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.video_streams FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
