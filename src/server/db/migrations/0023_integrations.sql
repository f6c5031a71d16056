CREATE TABLE "integration_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"destination_key" text NOT NULL,
	"status" text NOT NULL,
	"file_name" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"attempts" integer DEFAULT 1 NOT NULL,
	"error" text,
	"run_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integration_deliveries_key" UNIQUE("integration_id","site_id","fiscal_date","destination_key")
);
--> statement-breakpoint
CREATE TABLE "integrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"partner" text NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"sites" integer[] DEFAULT '{}' NOT NULL,
	"rule_id" integer,
	"destination" jsonb NOT NULL,
	"secret" text,
	"layout" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "integrations_partner_unique" UNIQUE("partner")
);
--> statement-breakpoint
ALTER TABLE "integration_deliveries" ADD CONSTRAINT "integration_deliveries_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "public"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations" ADD CONSTRAINT "integrations_rule_id_report_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."report_rules"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "integration_deliveries_status_idx" ON "integration_deliveries" USING btree ("status");