CREATE TABLE "auto_backup_config" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"active" boolean NOT NULL,
	"type" text NOT NULL,
	"jours" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"jour_du_mois" integer,
	"dernier_jour" boolean DEFAULT false NOT NULL,
	"heure" integer NOT NULL,
	"minute" integer DEFAULT 0 NOT NULL,
	"time_zone" text DEFAULT 'Europe/Paris' NOT NULL,
	"folder" text DEFAULT '' NOT NULL,
	"keep" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "auto_backup_config_one_row" CHECK ("auto_backup_config"."id" = 1)
);
