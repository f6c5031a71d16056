CREATE TABLE "fec_account_plans" (
	"company_id" integer NOT NULL,
	"role" text NOT NULL,
	"account" text NOT NULL,
	"label" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fec_account_plans_company_id_role_pk" PRIMARY KEY("company_id","role")
);
--> statement-breakpoint
ALTER TABLE "fec_account_plans" ADD CONSTRAINT "fec_account_plans_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;