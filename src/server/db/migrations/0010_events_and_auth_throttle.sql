CREATE TABLE "local_event_sites" (
	"site_id" integer NOT NULL,
	"event_uuid" uuid NOT NULL,
	CONSTRAINT "local_event_sites_site_id_event_uuid_pk" PRIMARY KEY("site_id","event_uuid")
);
--> statement-breakpoint
CREATE TABLE "local_events" (
	"uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_type" text NOT NULL,
	"designation" text NOT NULL,
	"sales_channel" text NOT NULL,
	"plu" text,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"impact_type" text NOT NULL,
	"impact_rate" numeric(6, 2) NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "local_events_dates" CHECK ("local_events"."start_date" <= "local_events"."end_date"),
	CONSTRAINT "local_events_impact_type" CHECK ("local_events"."impact_type" IN ('Positive', 'Negative')),
	CONSTRAINT "local_events_impact_rate" CHECK ("local_events"."impact_rate" >= 0 AND "local_events"."impact_rate" <= 1000)
);
--> statement-breakpoint
CREATE TABLE "auth_throttle" (
	"scope" text NOT NULL,
	"subject" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"lockouts" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auth_throttle_scope_subject_pk" PRIMARY KEY("scope","subject")
);
--> statement-breakpoint
ALTER TABLE "local_event_sites" ADD CONSTRAINT "local_event_sites_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_event_sites" ADD CONSTRAINT "local_event_sites_event_uuid_local_events_uuid_fk" FOREIGN KEY ("event_uuid") REFERENCES "public"."local_events"("uuid") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "local_events" ADD CONSTRAINT "local_events_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "local_event_sites_event_idx" ON "local_event_sites" USING btree ("event_uuid");--> statement-breakpoint
CREATE INDEX "local_events_dates_idx" ON "local_events" USING btree ("start_date","end_date");--> statement-breakpoint
-- The administrators' profile holds every right; EVENEMENTS (local events, issue #19) is new.
UPDATE "profiles" SET "droits" = array_append("droits", 'EVENEMENTS') WHERE "titre" = 'Administrateur' AND NOT ('EVENEMENTS' = ANY("droits"));
--> statement-breakpoint
-- Change feed (migration 0007, db/changes.ts): the forecast's caches (src/server/forecast) drop
-- what they hold when an event changes or when sales are loaded (every load records a data_loads row).
CREATE TRIGGER local_events_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON local_events
  FOR EACH STATEMENT EXECUTE FUNCTION comptoir_notify_change();
--> statement-breakpoint
CREATE TRIGGER local_event_sites_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON local_event_sites
  FOR EACH STATEMENT EXECUTE FUNCTION comptoir_notify_change();
--> statement-breakpoint
CREATE TRIGGER data_loads_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON data_loads
  FOR EACH STATEMENT EXECUTE FUNCTION comptoir_notify_change();
