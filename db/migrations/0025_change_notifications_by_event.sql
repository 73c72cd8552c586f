-- A change of a table with an `event_id` column notifies `oe_change` with the table's name and the
-- events of the rows it changed, `sessions:12,40` (old and new rows: a row moved to another event
-- names both; rows of no event add none), so the read cache keeps the answers that read only other
-- events' rows of the table (plugins/read-cache.ts). Transition tables need one trigger per kind of
-- change; TRUNCATE has none and keeps migration 0010's statement trigger naming the table alone
-- (every answer that read it goes), as does a change of more events than fit in a notification.
CREATE OR REPLACE FUNCTION oe_notify_event_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE ids text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT string_agg(DISTINCT e::text, ',') INTO ids FROM (SELECT event_id FROM oe_new) AS r(e);
  ELSIF TG_OP = 'DELETE' THEN
    SELECT string_agg(DISTINCT e::text, ',') INTO ids FROM (SELECT event_id FROM oe_old) AS r(e);
  ELSE
    SELECT string_agg(DISTINCT e::text, ',') INTO ids FROM (SELECT event_id FROM oe_old UNION SELECT event_id FROM oe_new) AS r(e);
  END IF;
  IF length(coalesce(ids, '')) > 4000 THEN
    PERFORM pg_notify('oe_change', TG_TABLE_NAME);
  ELSE
    PERFORM pg_notify('oe_change', TG_TABLE_NAME || ':' || coalesce(ids, ''));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DO $$
DECLARE t record;
BEGIN
  FOR t IN
    SELECT c.relname AS name FROM pg_class c
    JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'event_id' AND NOT a.attisdropped
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
      AND EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = c.oid AND g.tgname = 'oe_change')
  LOOP
    EXECUTE format('DROP TRIGGER oe_change ON public.%I', t.name);
    EXECUTE format('CREATE TRIGGER oe_change AFTER TRUNCATE ON public.%I FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_change()', t.name);
    EXECUTE format('CREATE TRIGGER oe_change_insert AFTER INSERT ON public.%I REFERENCING NEW TABLE AS oe_new FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_event_change()', t.name);
    EXECUTE format('CREATE TRIGGER oe_change_update AFTER UPDATE ON public.%I REFERENCING OLD TABLE AS oe_old NEW TABLE AS oe_new FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_event_change()', t.name);
    EXECUTE format('CREATE TRIGGER oe_change_delete AFTER DELETE ON public.%I REFERENCING OLD TABLE AS oe_old FOR EACH STATEMENT EXECUTE FUNCTION oe_notify_event_change()', t.name);
  END LOOP;
END;
$$;
