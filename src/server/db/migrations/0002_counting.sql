CREATE TABLE "cash_counts" (
	"site_id" integer NOT NULL,
	"id" bigserial NOT NULL,
	"fiscal_date" date NOT NULL,
	"terminal_id" integer NOT NULL,
	"version" integer NOT NULL,
	"cash" jsonb,
	"cash_cents" bigint,
	"cheques_cents" bigint,
	"meal_vouchers_cents" bigint,
	"card_slips_cents" bigint,
	"expected_cash_cents" bigint NOT NULL,
	"expected_cheques_cents" bigint NOT NULL,
	"expected_meal_vouchers_cents" bigint NOT NULL,
	"expected_card_slips_cents" bigint NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"counted_by" integer NOT NULL,
	"counted_by_login" text NOT NULL,
	"counted_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cash_counts_site_id_id_pk" PRIMARY KEY("site_id","id")
);
--> statement-breakpoint
CREATE TABLE "counting_rules" (
	"site_id" integer NOT NULL,
	"libelle" text NOT NULL,
	"active" boolean NOT NULL,
	"updated_by" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "counting_rules_site_id_libelle_pk" PRIMARY KEY("site_id","libelle")
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" integer NOT NULL,
	"key" uuid NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" smallint NOT NULL,
	"content_type" text,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "manager_codes" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manager_receipts" (
	"site_id" integer NOT NULL,
	"id" bigserial NOT NULL,
	"fiscal_date" date NOT NULL,
	"seller_code" text NOT NULL,
	"seller_name" text NOT NULL,
	"manager_code" text NOT NULL,
	"manager_name" text NOT NULL,
	"complements" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" integer NOT NULL,
	"created_by_login" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "manager_receipts_site_id_id_pk" PRIMARY KEY("site_id","id")
);
--> statement-breakpoint
CREATE TABLE "safe_counts" (
	"site_id" integer NOT NULL,
	"id" bigserial NOT NULL,
	"fiscal_date" date NOT NULL,
	"version" integer NOT NULL,
	"opening_cents" bigint NOT NULL,
	"deposits_cents" bigint NOT NULL,
	"withdrawals_cents" bigint NOT NULL,
	"contents" jsonb NOT NULL,
	"counted_cents" bigint NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"counted_by" integer NOT NULL,
	"counted_by_login" text NOT NULL,
	"counted_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"countersigned_by" integer,
	"countersigned_name" text,
	"countersign_comment" text,
	"countersigned_at" timestamp with time zone,
	CONSTRAINT "safe_counts_site_id_id_pk" PRIMARY KEY("site_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "cash_counts_site_date_terminal_version_idx" ON "cash_counts" USING btree ("site_id","fiscal_date","terminal_id","version");--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "manager_receipts_site_date_idx" ON "manager_receipts" USING btree ("site_id","fiscal_date");--> statement-breakpoint
CREATE UNIQUE INDEX "safe_counts_site_date_version_idx" ON "safe_counts" USING btree ("site_id","fiscal_date","version");