CREATE TABLE "fec_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"recurrence_id" integer,
	"libelle" text NOT NULL,
	"date_debut" date NOT NULL,
	"date_fin" date NOT NULL,
	"file_name" text NOT NULL,
	"path" text NOT NULL,
	"bytes" integer NOT NULL,
	"run_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fec_recurrences" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"libelle" text NOT NULL,
	"type" text NOT NULL,
	"week_days" integer[] DEFAULT '{}' NOT NULL,
	"month_day" integer,
	"last_day" boolean DEFAULT false NOT NULL,
	"hour" integer NOT NULL,
	"minute" integer NOT NULL,
	"period" text NOT NULL,
	"recipients" text[] DEFAULT '{}' NOT NULL,
	"language" text DEFAULT 'fr' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "fec_files" ADD CONSTRAINT "fec_files_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fec_files" ADD CONSTRAINT "fec_files_recurrence_id_fec_recurrences_id_fk" FOREIGN KEY ("recurrence_id") REFERENCES "public"."fec_recurrences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fec_recurrences" ADD CONSTRAINT "fec_recurrences_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fec_files_recurrence_period_idx" ON "fec_files" USING btree ("recurrence_id","date_debut","date_fin");--> statement-breakpoint
CREATE INDEX "fec_files_company_idx" ON "fec_files" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "fec_recurrences_company_idx" ON "fec_recurrences" USING btree ("company_id");