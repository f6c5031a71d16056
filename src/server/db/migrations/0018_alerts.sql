CREATE TABLE "alert_recipients" (
	"alert_id" integer NOT NULL,
	"recipient_id" integer NOT NULL,
	CONSTRAINT "alert_recipients_alert_id_recipient_id_pk" PRIMARY KEY("alert_id","recipient_id")
);
--> statement-breakpoint
CREATE TABLE "alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer,
	"libelle" text NOT NULL,
	"kind" text NOT NULL,
	"sites" integer[] DEFAULT '{}' NOT NULL,
	"rule_id" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"checked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "alert_recipients" ADD CONSTRAINT "alert_recipients_alert_id_alerts_id_fk" FOREIGN KEY ("alert_id") REFERENCES "public"."alerts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_recipients" ADD CONSTRAINT "alert_recipients_recipient_id_report_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."report_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_rule_id_report_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."report_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "alert_recipients_recipient_idx" ON "alert_recipients" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "alerts_owner_idx" ON "alerts" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "alerts_rule_idx" ON "alerts" USING btree ("rule_id");