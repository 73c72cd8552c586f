CREATE TABLE "skill_ratings" (
	"skill_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"stars" integer,
	"feedback" text,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "skill_ratings_skill_id_user_id_pk" PRIMARY KEY("skill_id","user_id"),
	CONSTRAINT "skill_ratings_stars" CHECK ("skill_ratings"."stars" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "skill_usage" (
	"skill_id" integer NOT NULL,
	"day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "skill_usage_skill_id_day_pk" PRIMARY KEY("skill_id","day")
);
--> statement-breakpoint
CREATE TABLE "skills" (
	"id" serial PRIMARY KEY NOT NULL,
	"model" varchar(100) NOT NULL,
	"group_name" varchar(100) NOT NULL,
	"language" varchar(100) NOT NULL,
	"name" varchar(100) NOT NULL,
	"author_id" integer,
	"author_email" varchar(254),
	"image" varchar(100),
	"staff_pick" boolean DEFAULT false NOT NULL,
	"reviewed" boolean DEFAULT false NOT NULL,
	"editable" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"modified_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "skill_ratings" ADD CONSTRAINT "skill_ratings_skill_id_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_ratings" ADD CONSTRAINT "skill_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skill_usage" ADD CONSTRAINT "skill_usage_skill_id_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "skills" ADD CONSTRAINT "skills_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "skills_path_key" ON "skills" USING btree ("model","group_name","language","name");