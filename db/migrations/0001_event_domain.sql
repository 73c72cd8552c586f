CREATE TABLE "event_roles" (
	"event_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" varchar(16) NOT NULL,
	CONSTRAINT "event_roles_event_id_user_id_role_pk" PRIMARY KEY("event_id","user_id","role"),
	CONSTRAINT "event_roles_role" CHECK ("event_roles"."role" in ('organizer', 'coorganizer'))
);
--> statement-breakpoint
CREATE TABLE "event_topics" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" varchar(255) NOT NULL,
	"slug" varchar(255) NOT NULL,
	"system_image_url" text,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" serial PRIMARY KEY NOT NULL,
	"identifier" varchar(16) NOT NULL,
	"name" varchar(255) NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"timezone" varchar(64) NOT NULL,
	"description" text,
	"location_name" varchar(255),
	"latitude" double precision,
	"longitude" double precision,
	"logo_url" text,
	"original_image_url" text,
	"large_image_url" text,
	"thumbnail_image_url" text,
	"icon_image_url" text,
	"external_event_url" text,
	"ticket_url" text,
	"privacy" varchar(16) DEFAULT 'public' NOT NULL,
	"state" varchar(16) DEFAULT 'draft' NOT NULL,
	"code_of_conduct" text,
	"event_topic_id" integer,
	"owner_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "events_ends_after_starts" CHECK ("events"."ends_at" > "events"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "custom_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"form" varchar(16) NOT NULL,
	"field_identifier" varchar(255) NOT NULL,
	"type" varchar(16) DEFAULT 'text' NOT NULL,
	"name" varchar(255),
	"description" text,
	"is_required" boolean DEFAULT false NOT NULL,
	"is_included" boolean DEFAULT false NOT NULL,
	"is_fixed" boolean DEFAULT false NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_copyrights" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"holder" varchar(255),
	"holder_url" text,
	"licence" varchar(255) NOT NULL,
	"licence_url" text,
	"year" integer,
	"logo_url" text,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "microlocations" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"floor" integer,
	"room" varchar(255),
	"position" integer DEFAULT 0 NOT NULL,
	"hidden_in_scheduler" boolean DEFAULT false NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "session_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"length" varchar(5) NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "social_links" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"link" text NOT NULL,
	"identifier" varchar(255),
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "sponsors" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"description" text,
	"url" text,
	"level" integer,
	"logo_url" text,
	"type" varchar(255),
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "tracks" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" varchar(255) NOT NULL,
	"color" varchar(7) NOT NULL,
	"font_color" varchar(7) NOT NULL,
	"description" text,
	"position" integer DEFAULT 0 NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"title" varchar(255) NOT NULL,
	"subtitle" varchar(255),
	"level" varchar(32),
	"short_abstract" text,
	"long_abstract" text,
	"comments" text,
	"starts_at" timestamp (3) with time zone,
	"ends_at" timestamp (3) with time zone,
	"language" varchar(64),
	"slides_url" text,
	"video_url" text,
	"audio_url" text,
	"signup_url" text,
	"state" varchar(16) DEFAULT 'draft' NOT NULL,
	"submitted_at" timestamp (3) with time zone,
	"track_id" integer,
	"microlocation_id" integer,
	"session_type_id" integer,
	"creator_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "sessions_ends_after_starts" CHECK ("sessions"."ends_at" > "sessions"."starts_at")
);
--> statement-breakpoint
CREATE TABLE "speakers" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"user_id" integer,
	"name" varchar(255) NOT NULL,
	"email" varchar(254),
	"mobile" varchar(64),
	"photo_url" text,
	"thumbnail_image_url" text,
	"small_image_url" text,
	"icon_image_url" text,
	"short_biography" text,
	"long_biography" text,
	"speaking_experience" text,
	"website" text,
	"twitter" text,
	"facebook" text,
	"github" text,
	"linkedin" text,
	"instagram" text,
	"organisation" varchar(255),
	"is_featured" boolean DEFAULT false NOT NULL,
	"position" varchar(255),
	"country" varchar(255),
	"city" varchar(255),
	"gender" varchar(32),
	"heard_from" varchar(255),
	"sponsorship_required" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "speakers_sessions" (
	"speaker_id" integer NOT NULL,
	"session_id" integer NOT NULL,
	CONSTRAINT "speakers_sessions_speaker_id_session_id_pk" PRIMARY KEY("speaker_id","session_id")
);
--> statement-breakpoint
ALTER TABLE "event_roles" ADD CONSTRAINT "event_roles_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_roles" ADD CONSTRAINT "event_roles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_event_topic_id_event_topics_id_fk" FOREIGN KEY ("event_topic_id") REFERENCES "public"."event_topics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custom_forms" ADD CONSTRAINT "custom_forms_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_copyrights" ADD CONSTRAINT "event_copyrights_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "microlocations" ADD CONSTRAINT "microlocations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_types" ADD CONSTRAINT "session_types_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "social_links" ADD CONSTRAINT "social_links_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sponsors" ADD CONSTRAINT "sponsors_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracks" ADD CONSTRAINT "tracks_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_track_id_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."tracks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_microlocation_id_microlocations_id_fk" FOREIGN KEY ("microlocation_id") REFERENCES "public"."microlocations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_session_type_id_session_types_id_fk" FOREIGN KEY ("session_type_id") REFERENCES "public"."session_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speakers" ADD CONSTRAINT "speakers_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speakers" ADD CONSTRAINT "speakers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speakers_sessions" ADD CONSTRAINT "speakers_sessions_speaker_id_speakers_id_fk" FOREIGN KEY ("speaker_id") REFERENCES "public"."speakers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speakers_sessions" ADD CONSTRAINT "speakers_sessions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_roles_user_id_idx" ON "event_roles" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_identifier_key" ON "events" USING btree ("identifier");--> statement-breakpoint
CREATE INDEX "events_owner_id_idx" ON "events" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "events_event_topic_id_idx" ON "events" USING btree ("event_topic_id");--> statement-breakpoint
CREATE INDEX "events_state_idx" ON "events" USING btree ("state","id");--> statement-breakpoint
CREATE UNIQUE INDEX "custom_forms_field_key" ON "custom_forms" USING btree ("event_id","form","field_identifier");--> statement-breakpoint
CREATE UNIQUE INDEX "event_copyrights_event_id_key" ON "event_copyrights" USING btree ("event_id") WHERE "event_copyrights"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "microlocations_event_id_idx" ON "microlocations" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "session_types_event_id_idx" ON "session_types" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "social_links_event_id_idx" ON "social_links" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "sponsors_event_id_idx" ON "sponsors" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "tracks_event_id_idx" ON "tracks" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "sessions_event_id_idx" ON "sessions" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "sessions_track_id_idx" ON "sessions" USING btree ("track_id");--> statement-breakpoint
CREATE INDEX "sessions_microlocation_id_idx" ON "sessions" USING btree ("microlocation_id");--> statement-breakpoint
CREATE INDEX "sessions_session_type_id_idx" ON "sessions" USING btree ("session_type_id");--> statement-breakpoint
CREATE INDEX "sessions_creator_id_idx" ON "sessions" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "speakers_event_id_idx" ON "speakers" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "speakers_user_id_idx" ON "speakers" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "speakers_event_email_key" ON "speakers" USING btree ("event_id",lower("email")) WHERE "speakers"."deleted_at" is null and "speakers"."email" is not null;--> statement-breakpoint
CREATE INDEX "speakers_sessions_session_id_idx" ON "speakers_sessions" USING btree ("session_id");