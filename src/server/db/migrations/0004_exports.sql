CREATE TABLE "data_loads" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"site_id" integer NOT NULL,
	"source" text NOT NULL,
	"first_fiscal_date" date,
	"last_fiscal_date" date,
	"tickets" integer NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_editions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"login" text NOT NULL,
	"class_name" text NOT NULL,
	"variant" text NOT NULL,
	"format" text NOT NULL,
	"language" text NOT NULL,
	"date_debut" date NOT NULL,
	"date_fin" date NOT NULL,
	"fiscal_dates" date[],
	"site_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"request" jsonb NOT NULL,
	"bytes" bigint,
	"rows" integer,
	"status" text NOT NULL,
	"generated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_editions" ADD CONSTRAINT "report_editions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_loads_site_idx" ON "data_loads" USING btree ("site_id","loaded_at");--> statement-breakpoint
CREATE INDEX "report_editions_user_idx" ON "report_editions" USING btree ("user_id","generated_at");--> statement-breakpoint
CREATE INDEX "report_editions_generated_idx" ON "report_editions" USING btree ("generated_at");