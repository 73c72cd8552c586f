CREATE TABLE "roles" (
	"id" varchar(32) PRIMARY KEY NOT NULL,
	"title_name" varchar(64) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "role_invites" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" varchar(254) NOT NULL,
	"event_id" integer NOT NULL,
	"role" varchar(32) NOT NULL,
	"hash" varchar(64) NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "role_invites_status" CHECK ("role_invites"."status" in ('pending', 'accepted', 'declined'))
);
--> statement-breakpoint
ALTER TABLE "event_roles" DROP CONSTRAINT "event_roles_role";--> statement-breakpoint
ALTER TABLE "event_roles" ALTER COLUMN "role" SET DATA TYPE varchar(32);--> statement-breakpoint
ALTER TABLE "event_roles" ADD COLUMN "event_role_id" serial NOT NULL;--> statement-breakpoint
ALTER TABLE "role_invites" ADD CONSTRAINT "role_invites_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "role_invites" ADD CONSTRAINT "role_invites_role_roles_id_fk" FOREIGN KEY ("role") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "role_invites_hash_key" ON "role_invites" USING btree ("hash");--> statement-breakpoint
CREATE UNIQUE INDEX "role_invites_event_email_role_key" ON "role_invites" USING btree ("event_id",lower("email"),"role");--> statement-breakpoint
CREATE INDEX "role_invites_event_id_idx" ON "role_invites" USING btree ("event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "event_roles_id_key" ON "event_roles" USING btree ("event_role_id");--> statement-breakpoint
ALTER TABLE "event_roles" ADD CONSTRAINT "event_roles_role" CHECK ("event_roles"."role" in ('owner', 'organizer', 'coorganizer', 'track_organizer', 'registrar', 'moderator'));--> statement-breakpoint
-- hand-written (event_roles_invites)
INSERT INTO "roles" ("id", "title_name") VALUES
  ('owner', 'Owner'), ('organizer', 'Organizer'), ('coorganizer', 'Co-organizer'),
  ('track_organizer', 'Track Organizer'), ('registrar', 'Registrar'), ('moderator', 'Moderator');
--> statement-breakpoint
CREATE FUNCTION oe_event_owner_role() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "event_roles" WHERE "event_id" = NEW."id" AND "role" = 'owner' AND "user_id" <> NEW."owner_id";
  INSERT INTO "event_roles" ("event_id", "user_id", "role") VALUES (NEW."id", NEW."owner_id", 'owner') ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER oe_event_owner_role AFTER INSERT OR UPDATE OF "owner_id" ON "events" FOR EACH ROW EXECUTE FUNCTION oe_event_owner_role();
--> statement-breakpoint
INSERT INTO "event_roles" ("event_id", "user_id", "role") SELECT "id", "owner_id", 'owner' FROM "events" ON CONFLICT DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.roles FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
--> statement-breakpoint
CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.role_invites FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change();
