-- Every committed change of an application table notifies the channel `oe_change` with the table's
-- name (once per table and transaction: PostgreSQL folds equal notifications), so each API process
-- can drop its cached reads (plugins/read-cache.ts). A table added later needs the same trigger; a
-- test checks that every table has it.
CREATE OR REPLACE FUNCTION oe_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('oe_change', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' LOOP
    EXECUTE format(
      'CREATE TRIGGER oe_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON public.%I FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change()',
      t.tablename);
  END LOOP;
END;
$$;
