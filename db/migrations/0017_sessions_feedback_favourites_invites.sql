CREATE TABLE "feedback" (
	"id" serial PRIMARY KEY NOT NULL,
	"rating" double precision NOT NULL,
	"comment" text,
	"user_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"session_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "feedback_rating_range" CHECK ("feedback"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "speaker_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" varchar(254) NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"event_id" integer NOT NULL,
	"session_id" integer NOT NULL,
	"inviter_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "speaker_invites_status" CHECK ("speaker_invites"."status" in ('pending', 'accepted', 'rejected'))
);
--> statement-breakpoint
CREATE TABLE "user_favourite_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "average_rating" double precision DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "favourite_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speaker_invites" ADD CONSTRAINT "speaker_invites_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speaker_invites" ADD CONSTRAINT "speaker_invites_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "speaker_invites" ADD CONSTRAINT "speaker_invites_inviter_id_users_id_fk" FOREIGN KEY ("inviter_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_favourite_sessions" ADD CONSTRAINT "user_favourite_sessions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_favourite_sessions" ADD CONSTRAINT "user_favourite_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feedback_event_id_idx" ON "feedback" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "feedback_session_id_idx" ON "feedback" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "feedback_user_id_idx" ON "feedback" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "feedback_session_user_key" ON "feedback" USING btree ("session_id","user_id") WHERE "feedback"."deleted_at" is null and "feedback"."session_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "feedback_event_user_key" ON "feedback" USING btree ("event_id","user_id") WHERE "feedback"."deleted_at" is null and "feedback"."session_id" is null;--> statement-breakpoint
CREATE INDEX "speaker_invites_event_id_idx" ON "speaker_invites" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "speaker_invites_session_id_idx" ON "speaker_invites" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "speaker_invites_email_idx" ON "speaker_invites" USING btree (lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "speaker_invites_pending_key" ON "speaker_invites" USING btree ("session_id",lower("email")) WHERE "speaker_invites"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "user_favourite_sessions_session_user_key" ON "user_favourite_sessions" USING btree ("session_id","user_id");--> statement-breakpoint
CREATE INDEX "user_favourite_sessions_user_id_idx" ON "user_favourite_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE VIEW "public"."event_session_favourites" AS (select "sessions"."event_id" as event_id, "user_favourite_sessions"."id" as favourite_id
  from "user_favourite_sessions" inner join "sessions" on "sessions"."id" = "user_favourite_sessions"."session_id");--> statement-breakpoint
-- hand-written (sessions_feedback_favourites_invites)
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.feedback FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.user_favourite_sessions FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.speaker_invites FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
-- A session's average-rating and favourite-count are stored on it and kept by these triggers, so every
-- read (lists, includes, sorts) takes them from the row, as the reference's aggregated columns.
CREATE OR REPLACE FUNCTION oe_session_rating(session integer) RETURNS void LANGUAGE sql AS $$
  UPDATE public.sessions s SET average_rating = r.avg
  FROM (SELECT coalesce(avg(rating), 0)::double precision AS avg FROM public.feedback
        WHERE session_id = session AND deleted_at IS NULL) r
  WHERE s.id = session AND s.average_rating IS DISTINCT FROM r.avg;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION oe_feedback_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.session_id IS NOT NULL THEN PERFORM oe_session_rating(OLD.session_id); END IF;
  IF TG_OP <> 'DELETE' AND NEW.session_id IS NOT NULL
     AND (TG_OP = 'INSERT' OR NEW.session_id IS DISTINCT FROM OLD.session_id OR NEW.rating IS DISTINCT FROM OLD.rating
          OR NEW.deleted_at IS DISTINCT FROM OLD.deleted_at) THEN
    PERFORM oe_session_rating(NEW.session_id);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER oe_session_rating AFTER INSERT OR UPDATE OR DELETE ON public.feedback FOR EACH ROW EXECUTE FUNCTION oe_feedback_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION oe_favourites_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE public.sessions SET favourite_count = favourite_count + 1 WHERE id = NEW.session_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE public.sessions SET favourite_count = favourite_count - 1 WHERE id = OLD.session_id;
  ELSIF NEW.session_id IS DISTINCT FROM OLD.session_id THEN
    UPDATE public.sessions SET favourite_count = favourite_count - 1 WHERE id = OLD.session_id;
    UPDATE public.sessions SET favourite_count = favourite_count + 1 WHERE id = NEW.session_id;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER oe_session_favourites AFTER INSERT OR UPDATE OR DELETE ON public.user_favourite_sessions FOR EACH ROW EXECUTE FUNCTION oe_favourites_changed();
