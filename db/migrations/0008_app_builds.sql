ALTER TABLE "tasks" DROP CONSTRAINT "tasks_kind";--> statement-breakpoint
ALTER TABLE "tasks" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
CREATE INDEX "tasks_app_mailbox_idx" ON "tasks" USING btree (("options"->>'mailbox'),"created_at") WHERE "tasks"."kind" = 'app';--> statement-breakpoint
CREATE INDEX "tasks_app_client_idx" ON "tasks" USING btree (("options"->>'client'),"created_at") WHERE "tasks"."kind" = 'app';--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_requester" CHECK ("tasks"."kind" = 'app' or "tasks"."user_id" is not null);--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_kind" CHECK ("tasks"."kind" in ('export', 'import', 'app'));