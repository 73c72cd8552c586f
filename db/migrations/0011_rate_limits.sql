CREATE TABLE "rate_limit_hits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"bucket" varchar(32) NOT NULL,
	"key" text NOT NULL,
	"weight" integer DEFAULT 1 NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "tasks_app_mailbox_idx";--> statement-breakpoint
DROP INDEX "tasks_app_client_idx";--> statement-breakpoint
CREATE INDEX "rate_limit_hits_key_idx" ON "rate_limit_hits" USING btree ("bucket","key","expires_at");--> statement-breakpoint
CREATE INDEX "rate_limit_hits_expires_at_idx" ON "rate_limit_hits" USING btree ("expires_at");--> statement-breakpoint
-- Checks and records rate-limit hits in one round trip (src/rate-limits/hits.ts). Limit i allows a
-- weight of p_max[i] per p_window[i] seconds to the key p_keys[i] of p_buckets[i]; this request
-- weighs p_weight[i] (counted at most p_max[i] in the check: a request larger than a whole budget
-- needs the whole budget). Answers the seconds until every limit has room (nothing is recorded
-- then), or 0 and the ids of the hits recorded, in the order of the limits. The keys stay locked
-- until the caller's transaction ends, taken in one order: concurrent requests are counted one
-- after the other and cannot deadlock. Each recording also deletes up to 100 expired hits, so the
-- table holds little more than the live windows without a sweeper.
-- No oe_change trigger on rate_limit_hits (see migration 0010): no read serves it, and the
-- notifications would let anyone empty every API process's read cache with failed logins.
CREATE FUNCTION rate_limit_take(p_buckets text[], p_keys text[], p_max integer[], p_weight integer[], p_window integer[])
RETURNS TABLE (wait integer, ids bigint[]) LANGUAGE plpgsql AS $$
DECLARE
  lock_key bigint;
  total bigint;
  excess bigint;
  free_at timestamptz;
  longest integer := 0;
BEGIN
  FOR lock_key IN
    SELECT DISTINCT hashtextextended('rate-limit:' || u.b || ':' || u.k, 0) FROM unnest(p_buckets, p_keys) AS u(b, k) ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock(lock_key);
  END LOOP;
  FOR i IN 1 .. coalesce(array_length(p_buckets, 1), 0) LOOP
    SELECT coalesce(sum(h.weight), 0) INTO total FROM rate_limit_hits h
     WHERE h.bucket = p_buckets[i] AND h.key = p_keys[i] AND h.expires_at > now();
    excess := total + least(p_weight[i], p_max[i]) - p_max[i];
    CONTINUE WHEN excess <= 0;
    -- The oldest hits leave the window first: there is room once the weight gone covers the excess.
    SELECT x.expires_at INTO free_at FROM (
      SELECT h.expires_at, sum(h.weight) OVER (ORDER BY h.expires_at, h.id) AS gone FROM rate_limit_hits h
       WHERE h.bucket = p_buckets[i] AND h.key = p_keys[i] AND h.expires_at > now()) x
     WHERE x.gone >= excess ORDER BY x.expires_at LIMIT 1;
    longest := greatest(longest, 1, ceil(extract(epoch FROM free_at - now()))::integer);
  END LOOP;
  IF longest > 0 THEN
    RETURN QUERY SELECT longest, '{}'::bigint[];
    RETURN;
  END IF;
  DELETE FROM rate_limit_hits WHERE rate_limit_hits.id IN (
    SELECT h.id FROM rate_limit_hits h WHERE h.expires_at <= now() ORDER BY h.expires_at LIMIT 100 FOR UPDATE SKIP LOCKED);
  RETURN QUERY WITH added AS (
    INSERT INTO rate_limit_hits (bucket, key, weight, expires_at)
    SELECT u.b, u.k, u.w, now() + make_interval(secs => u.s)
      FROM unnest(p_buckets, p_keys, p_weight, p_window) WITH ORDINALITY AS u(b, k, w, s, n) ORDER BY u.n
    RETURNING rate_limit_hits.id)
  SELECT 0, array_agg(added.id ORDER BY added.id) FROM added;
END;
$$;
