ALTER TABLE "role_invites" ALTER COLUMN "hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "role_invites" ADD COLUMN "expires_at" timestamp (3) with time zone;--> statement-breakpoint
-- The tokens mailed so far were kept as they were sent: keep only their SHA-256 (the links still work),
-- valid for a day from the invite (its one mail was sent then), as INVITE_EXPIRES_IN defaults to.
UPDATE "role_invites" SET "hash" = encode(sha256(convert_to("hash", 'UTF8')), 'hex'), "expires_at" = "created_at" + interval '1 day';
