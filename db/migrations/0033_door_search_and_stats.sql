-- hand-written (the door's search): trigram indexes need pg_trgm (a trusted extension, part of PostgreSQL's contrib)
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "user_check_ins_event_id_idx";--> statement-breakpoint
CREATE INDEX "attendees_name_trgm_idx" ON "attendees" USING gin ((coalesce("firstname", '') || ' ' || coalesce("lastname", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "attendees_email_trgm_idx" ON "attendees" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "user_check_ins_event_day_idx" ON "user_check_ins" USING btree ("event_id","created_at");--> statement-breakpoint
CREATE VIEW "public"."microlocation_user_check_ins" AS (select "stations"."microlocation_id" as microlocation_id, "user_check_ins"."id" as user_check_in_id
  from "user_check_ins" inner join "stations" on "stations"."id" = "user_check_ins"."station_id"
  where "stations"."microlocation_id" is not null);