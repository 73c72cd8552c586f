CREATE INDEX "sessions_live_event_idx" ON "sessions" USING btree ("event_id","id") WHERE "sessions"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "speakers_live_event_idx" ON "speakers" USING btree ("event_id","id") WHERE "speakers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "skill_ratings_user_id_idx" ON "skill_ratings" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "skills_author_id_idx" ON "skills" USING btree ("author_id");