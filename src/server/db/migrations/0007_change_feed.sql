-- Change feed (src/server/db/changes.ts): a statement that changes who may see what, or what a
-- site is called, tells every server process on channel comptoir_changes (payload: the table),
-- so the caches of session checks and report sites drop what they hold.
CREATE FUNCTION comptoir_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('comptoir_changes', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION comptoir_notify_change();
--> statement-breakpoint
CREATE TRIGGER profiles_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON profiles
  FOR EACH STATEMENT EXECUTE FUNCTION comptoir_notify_change();
--> statement-breakpoint
CREATE TRIGGER sites_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON sites
  FOR EACH STATEMENT EXECUTE FUNCTION comptoir_notify_change();
--> statement-breakpoint
CREATE TRIGGER companies_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON companies
  FOR EACH STATEMENT EXECUTE FUNCTION comptoir_notify_change();
--> statement-breakpoint
-- Sessions: an ended or shortened session must leave the caches; a new one or the sliding
-- expiry (pushed later at most once a minute) need not.
CREATE TRIGGER sessions_ended AFTER DELETE OR TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION comptoir_notify_change();
--> statement-breakpoint
CREATE TRIGGER sessions_shortened AFTER UPDATE ON sessions
  FOR EACH ROW WHEN (NEW.expires_at < OLD.expires_at OR NEW.user_id IS DISTINCT FROM OLD.user_id
                     OR NEW.token_hash IS DISTINCT FROM OLD.token_hash)
  EXECUTE FUNCTION comptoir_notify_change();
