CREATE TABLE "badge_field_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"badge_form_id" integer NOT NULL,
	"badge_id" varchar(255) NOT NULL,
	"field_identifier" varchar(255),
	"custom_field" varchar(255),
	"sample_text" varchar(2048),
	"font_size" integer,
	"font_name" varchar(255),
	"font_weight" jsonb,
	"font_color" varchar(255),
	"text_rotation" integer,
	"text_alignment" varchar(255),
	"text_type" varchar(255),
	"is_deleted" boolean DEFAULT false,
	"margin_top" integer,
	"margin_bottom" integer,
	"margin_left" integer,
	"margin_right" integer,
	"qr_custom_field" varchar(255)[],
	"is_field_expanded" boolean DEFAULT false,
	"event_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "badge_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"badge_id" varchar(255) NOT NULL,
	"badge_size" varchar(255),
	"badge_color" varchar(255),
	"badge_image_url" varchar(2048),
	"badge_orientation" varchar(255),
	"event_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "station_store_paxs" (
	"id" serial PRIMARY KEY NOT NULL,
	"station_id" integer NOT NULL,
	"session_id" integer NOT NULL,
	"current_pax" integer DEFAULT 0 NOT NULL,
	"event_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "stations" (
	"id" serial PRIMARY KEY NOT NULL,
	"station_name" varchar(255) NOT NULL,
	"station_type" varchar(16),
	"microlocation_id" integer,
	"event_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "stations_station_type_check" CHECK ("stations"."station_type" in ('registration', 'daily', 'check in', 'check out'))
);
--> statement-breakpoint
CREATE TABLE "user_check_ins" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_holder_id" integer NOT NULL,
	"session_id" integer,
	"station_id" integer NOT NULL,
	"track_name" varchar(255),
	"session_name" varchar(255),
	"speaker_name" varchar(2048),
	"check_in_out_at" timestamp (3) with time zone,
	"event_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone,
	"deleted_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "badge_field_forms" ADD CONSTRAINT "badge_field_forms_badge_form_id_badge_forms_id_fk" FOREIGN KEY ("badge_form_id") REFERENCES "public"."badge_forms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_field_forms" ADD CONSTRAINT "badge_field_forms_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "badge_forms" ADD CONSTRAINT "badge_forms_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station_store_paxs" ADD CONSTRAINT "station_store_paxs_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station_store_paxs" ADD CONSTRAINT "station_store_paxs_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "station_store_paxs" ADD CONSTRAINT "station_store_paxs_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stations" ADD CONSTRAINT "stations_microlocation_id_microlocations_id_fk" FOREIGN KEY ("microlocation_id") REFERENCES "public"."microlocations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stations" ADD CONSTRAINT "stations_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_check_ins" ADD CONSTRAINT "user_check_ins_ticket_holder_id_attendees_id_fk" FOREIGN KEY ("ticket_holder_id") REFERENCES "public"."attendees"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_check_ins" ADD CONSTRAINT "user_check_ins_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_check_ins" ADD CONSTRAINT "user_check_ins_station_id_stations_id_fk" FOREIGN KEY ("station_id") REFERENCES "public"."stations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_check_ins" ADD CONSTRAINT "user_check_ins_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "badge_field_forms_event_id_idx" ON "badge_field_forms" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "badge_field_forms_badge_form_idx" ON "badge_field_forms" USING btree ("badge_form_id");--> statement-breakpoint
CREATE INDEX "badge_forms_event_id_idx" ON "badge_forms" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "station_store_paxs_event_id_idx" ON "station_store_paxs" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "station_store_paxs_station_idx" ON "station_store_paxs" USING btree ("station_id");--> statement-breakpoint
CREATE INDEX "station_store_paxs_session_idx" ON "station_store_paxs" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "stations_event_id_idx" ON "stations" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "stations_microlocation_idx" ON "stations" USING btree ("microlocation_id");--> statement-breakpoint
CREATE INDEX "user_check_ins_event_id_idx" ON "user_check_ins" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "user_check_ins_station_idx" ON "user_check_ins" USING btree ("station_id");--> statement-breakpoint
CREATE INDEX "user_check_ins_ticket_holder_idx" ON "user_check_ins" USING btree ("ticket_holder_id");--> statement-breakpoint
-- hand-written (check-in and badges): the new tables notify their changes like every other (read-cache test), each
-- naming its events (migration 0025): every one of them has an event_id
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['stations', 'station_store_paxs', 'user_check_ins', 'badge_forms', 'badge_field_forms'] LOOP
    EXECUTE format('CREATE TRIGGER oe_change AFTER TRUNCATE ON public.%I FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change()', t);
    EXECUTE format('CREATE TRIGGER oe_change_insert AFTER INSERT ON public.%I REFERENCING NEW TABLE AS oe_new FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_event_change()', t);
    EXECUTE format('CREATE TRIGGER oe_change_update AFTER UPDATE ON public.%I REFERENCING OLD TABLE AS oe_old NEW TABLE AS oe_new FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_event_change()', t);
    EXECUTE format('CREATE TRIGGER oe_change_delete AFTER DELETE ON public.%I REFERENCING OLD TABLE AS oe_old FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_event_change()', t);
  END LOOP;
END;
$$;
