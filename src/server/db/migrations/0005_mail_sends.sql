CREATE TABLE "mail_sends" (
	"user_id" integer NOT NULL,
	"key" uuid NOT NULL,
	"recipient" text NOT NULL,
	"claimed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "mail_sends_user_id_key_recipient_pk" PRIMARY KEY("user_id","key","recipient")
);
--> statement-breakpoint
CREATE INDEX "mail_sends_claimed_idx" ON "mail_sends" USING btree ("claimed_at");