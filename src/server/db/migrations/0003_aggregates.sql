CREATE TABLE "daily_family_sales" (
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"family" text,
	"quantity" numeric(16, 3) NOT NULL,
	"net_cents" bigint NOT NULL,
	"net_excl_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	CONSTRAINT "daily_family_sales_key" UNIQUE NULLS NOT DISTINCT("site_id","fiscal_date","family")
);
--> statement-breakpoint
CREATE TABLE "daily_hour_sales" (
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"hour" smallint NOT NULL,
	"tickets" integer NOT NULL,
	"covers" integer NOT NULL,
	"net_cents" bigint NOT NULL,
	"net_excl_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	CONSTRAINT "daily_hour_sales_site_id_fiscal_date_hour_pk" PRIMARY KEY("site_id","fiscal_date","hour")
);
--> statement-breakpoint
CREATE TABLE "daily_payment_sales" (
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"method" text NOT NULL,
	"payments" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "daily_payment_sales_site_id_fiscal_date_method_pk" PRIMARY KEY("site_id","fiscal_date","method")
);
--> statement-breakpoint
CREATE TABLE "daily_seller_sales" (
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"seller_code" text,
	"tickets" integer NOT NULL,
	"net_cents" bigint NOT NULL,
	"net_excl_cents" bigint NOT NULL,
	CONSTRAINT "daily_seller_sales_key" UNIQUE NULLS NOT DISTINCT("site_id","fiscal_date","seller_code")
);
--> statement-breakpoint
CREATE TABLE "daily_terminal_sales" (
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"terminal_id" integer,
	"tickets" integer NOT NULL,
	"net_cents" bigint NOT NULL,
	"net_excl_cents" bigint NOT NULL,
	CONSTRAINT "daily_terminal_sales_key" UNIQUE NULLS NOT DISTINCT("site_id","fiscal_date","terminal_id")
);
--> statement-breakpoint
CREATE TABLE "daily_ticket_stats" (
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"covers" integer NOT NULL,
	"covered_cents" bigint NOT NULL,
	"cancellations" integer NOT NULL,
	"cancelled_cents" bigint NOT NULL,
	"employee_meals" integer NOT NULL,
	"employee_meal_cents" bigint NOT NULL,
	"first_opened_at" timestamp with time zone NOT NULL,
	"last_opened_at" timestamp with time zone NOT NULL,
	CONSTRAINT "daily_ticket_stats_site_id_fiscal_date_pk" PRIMARY KEY("site_id","fiscal_date")
);
--> statement-breakpoint
CREATE TABLE "daily_vat_sales" (
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"vat_rate" numeric(6, 4) NOT NULL,
	"net_cents" bigint NOT NULL,
	"net_excl_cents" bigint NOT NULL,
	"tax_cents" bigint NOT NULL,
	"kept_lines" integer NOT NULL,
	"corrected_lines" integer NOT NULL,
	"corrected_cents" bigint NOT NULL,
	CONSTRAINT "daily_vat_sales_site_id_fiscal_date_vat_rate_pk" PRIMARY KEY("site_id","fiscal_date","vat_rate")
);
