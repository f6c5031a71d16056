CREATE TABLE "data_purges" (
	"id" serial NOT NULL,
	"site_id" integer NOT NULL,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"archive_path" text NOT NULL,
	"archive_sha256" text NOT NULL,
	"row_counts" jsonb NOT NULL,
	"comment" text NOT NULL,
	"user_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_purges_site_id_id_pk" PRIMARY KEY("site_id","id")
);
--> statement-breakpoint
CREATE TABLE "fiscal_day_totals" (
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"purge_id" integer NOT NULL,
	"tickets" integer NOT NULL,
	"net_cents" bigint NOT NULL,
	"net_excl_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	CONSTRAINT "fiscal_day_totals_site_id_fiscal_date_purge_id_pk" PRIMARY KEY("site_id","fiscal_date","purge_id")
);
--> statement-breakpoint
CREATE INDEX "data_purges_site_idx" ON "data_purges" USING btree ("site_id","from_date");--> statement-breakpoint
CREATE FUNCTION "purge_records_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (issue #30: purged totals and purge records are never changed)', TG_TABLE_NAME;
END $$;--> statement-breakpoint
CREATE TRIGGER "data_purges_append_only" BEFORE UPDATE OR DELETE ON "data_purges"
  FOR EACH ROW EXECUTE FUNCTION "purge_records_append_only"();--> statement-breakpoint
CREATE TRIGGER "data_purges_no_truncate" BEFORE TRUNCATE ON "data_purges"
  FOR EACH STATEMENT EXECUTE FUNCTION "purge_records_append_only"();--> statement-breakpoint
CREATE TRIGGER "fiscal_day_totals_append_only" BEFORE UPDATE OR DELETE ON "fiscal_day_totals"
  FOR EACH ROW EXECUTE FUNCTION "purge_records_append_only"();--> statement-breakpoint
CREATE TRIGGER "fiscal_day_totals_no_truncate" BEFORE TRUNCATE ON "fiscal_day_totals"
  FOR EACH STATEMENT EXECUTE FUNCTION "purge_records_append_only"();
