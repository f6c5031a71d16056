CREATE TABLE "job_clock" (
	"name" text PRIMARY KEY NOT NULL,
	"last_tick" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_mails" (
	"key" text NOT NULL,
	"recipients" text NOT NULL,
	"run_id" uuid,
	"message" jsonb NOT NULL,
	"message_id" text NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sending_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"error" text,
	CONSTRAINT "job_mails_key_recipients_pk" PRIMARY KEY("key","recipients")
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"singleton_key" text,
	"planned_at" timestamp with time zone NOT NULL,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mails" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "job_mails_queued_idx" ON "job_mails" USING btree ("queued_at");--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_kind_singleton_key_idx" ON "job_runs" USING btree ("kind","singleton_key") WHERE "job_runs"."singleton_key" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "job_runs_kind_queued_idx" ON "job_runs" USING btree ("kind","queued_at");--> statement-breakpoint
CREATE INDEX "job_runs_data_idx" ON "job_runs" USING gin ("data");