CREATE TABLE "report_recipients" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer,
	"user_id" integer,
	"email" text,
	"language" text DEFAULT 'fr' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer,
	"libelle" text NOT NULL,
	"type" text NOT NULL,
	"week_days" smallint[] DEFAULT '{}' NOT NULL,
	"month_day" smallint,
	"last_day" boolean DEFAULT false NOT NULL,
	"hour" smallint NOT NULL,
	"minute" smallint DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_subscription_recipients" (
	"subscription_id" integer NOT NULL,
	"recipient_id" integer NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "report_subscription_recipients_subscription_id_recipient_id_pk" PRIMARY KEY("subscription_id","recipient_id")
);
--> statement-breakpoint
CREATE TABLE "report_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer,
	"libelle" text NOT NULL,
	"rule_id" integer NOT NULL,
	"report" jsonb NOT NULL,
	"formats" text[] NOT NULL,
	"only_with_data" boolean DEFAULT true NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"last_run" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "server_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_recipients" ADD CONSTRAINT "report_recipients_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_recipients" ADD CONSTRAINT "report_recipients_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_rules" ADD CONSTRAINT "report_rules_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_subscription_recipients" ADD CONSTRAINT "report_subscription_recipients_subscription_id_report_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."report_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_subscription_recipients" ADD CONSTRAINT "report_subscription_recipients_recipient_id_report_recipients_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."report_recipients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_subscriptions" ADD CONSTRAINT "report_subscriptions_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_subscriptions" ADD CONSTRAINT "report_subscriptions_rule_id_report_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."report_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_subscription_recipients_recipient_idx" ON "report_subscription_recipients" USING btree ("recipient_id");--> statement-breakpoint
CREATE INDEX "report_subscriptions_owner_idx" ON "report_subscriptions" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "report_subscriptions_rule_idx" ON "report_subscriptions" USING btree ("rule_id");