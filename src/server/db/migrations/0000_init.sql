CREATE SEQUENCE "public"."loss_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE SEQUENCE "public"."ticket_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "companies" (
	"id" serial PRIMARY KEY NOT NULL,
	"raison_sociale" text NOT NULL,
	"enseigne" text,
	"siret" text,
	"code_licence" text,
	CONSTRAINT "companies_raison_sociale_unique" UNIQUE("raison_sociale")
);
--> statement-breakpoint
CREATE TABLE "daily_sales" (
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"tickets" integer NOT NULL,
	"net_cents" bigint NOT NULL,
	"net_excl_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	CONSTRAINT "daily_sales_site_id_fiscal_date_pk" PRIMARY KEY("site_id","fiscal_date")
);
--> statement-breakpoint
CREATE TABLE "group_sites" (
	"group_id" integer NOT NULL,
	"site_id" integer NOT NULL,
	CONSTRAINT "group_sites_group_id_site_id_pk" PRIMARY KEY("group_id","site_id")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"raison_sociale" text NOT NULL,
	CONSTRAINT "groups_raison_sociale_unique" UNIQUE("raison_sociale")
);
--> statement-breakpoint
CREATE TABLE "losses" (
	"site_id" integer NOT NULL,
	"loss_id" bigint NOT NULL,
	"fiscal_date" date NOT NULL,
	"type" text NOT NULL,
	"article" text NOT NULL,
	"family" text,
	"quantity" numeric(14, 3) NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "losses_site_id_loss_id_pk" PRIMARY KEY("site_id","loss_id")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"site_id" integer NOT NULL,
	"ticket_id" bigint NOT NULL,
	"payment_no" smallint NOT NULL,
	"method" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "payments_site_id_ticket_id_payment_no_pk" PRIMARY KEY("site_id","ticket_id","payment_no")
);
--> statement-breakpoint
CREATE TABLE "profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"titre" text NOT NULL,
	"droits" text[] DEFAULT '{}'::text[] NOT NULL,
	"criteres" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"all_sites" boolean DEFAULT false NOT NULL,
	"restaurant_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"societes_plus" integer[] DEFAULT '{}'::int[] NOT NULL,
	"societes_moins" integer[] DEFAULT '{}'::int[] NOT NULL,
	"options_tickets" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"profile_caisse" boolean DEFAULT false NOT NULL,
	CONSTRAINT "profiles_titre_unique" UNIQUE("titre")
);
--> statement-breakpoint
CREATE TABLE "sellers" (
	"site_id" integer NOT NULL,
	"code" text NOT NULL,
	"nom" text NOT NULL,
	CONSTRAINT "sellers_site_id_code_pk" PRIMARY KEY("site_id","code")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sites" (
	"id" serial PRIMARY KEY NOT NULL,
	"libelle" text NOT NULL,
	"company_id" integer NOT NULL,
	"code_implant" text,
	"time_zone" text DEFAULT 'Europe/Paris' NOT NULL,
	"day_start" text DEFAULT '00:00' NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"extras" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "sites_libelle_unique" UNIQUE("libelle")
);
--> statement-breakpoint
CREATE TABLE "terminals" (
	"site_id" integer NOT NULL,
	"terminal_id" integer NOT NULL,
	"libelle" text NOT NULL,
	CONSTRAINT "terminals_site_id_terminal_id_pk" PRIMARY KEY("site_id","terminal_id")
);
--> statement-breakpoint
CREATE TABLE "ticket_lines" (
	"site_id" integer NOT NULL,
	"ticket_id" bigint NOT NULL,
	"line_no" integer NOT NULL,
	"article_code" text,
	"article" text NOT NULL,
	"family" text,
	"quantity" numeric(14, 3) NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"vat_rate" numeric(6, 4) NOT NULL,
	"amount_excl_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"corrected" boolean DEFAULT false NOT NULL,
	CONSTRAINT "ticket_lines_site_id_ticket_id_line_no_pk" PRIMARY KEY("site_id","ticket_id","line_no")
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"site_id" integer NOT NULL,
	"ticket_id" bigint NOT NULL,
	"fiscal_date" date NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"terminal_id" integer,
	"seller_code" text,
	"kind" text DEFAULT 'SALE' NOT NULL,
	"employee_meal" boolean DEFAULT false NOT NULL,
	"training_mode" boolean DEFAULT false NOT NULL,
	"covers" smallint,
	"total_cents" bigint NOT NULL,
	"total_excl_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"source" text NOT NULL,
	"source_ref" text NOT NULL,
	CONSTRAINT "tickets_site_id_ticket_id_pk" PRIMARY KEY("site_id","ticket_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"login" text NOT NULL,
	"email" text,
	"password_hash" text NOT NULL,
	"profile_id" integer NOT NULL,
	"role" text DEFAULT '' NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"theme" text,
	"couleur" text,
	"societes_plus" integer[] DEFAULT '{}'::int[] NOT NULL,
	"societes_moins" integer[] DEFAULT '{}'::int[] NOT NULL,
	"country" text,
	"language" text,
	"code_exploitant" text,
	"activation_key" text,
	"re_password_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_login_unique" UNIQUE("login")
);
--> statement-breakpoint
ALTER TABLE "group_sites" ADD CONSTRAINT "group_sites_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_sites" ADD CONSTRAINT "group_sites_site_id_sites_id_fk" FOREIGN KEY ("site_id") REFERENCES "public"."sites"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sites" ADD CONSTRAINT "sites_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "losses_site_date_idx" ON "losses" USING btree ("site_id","fiscal_date");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "tickets_site_date_idx" ON "tickets" USING btree ("site_id","fiscal_date");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_site_source_ref_idx" ON "tickets" USING btree ("site_id","source","source_ref");