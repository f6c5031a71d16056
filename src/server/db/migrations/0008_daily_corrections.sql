CREATE TABLE "daily_corrections" (
	"site_id" integer NOT NULL,
	"fiscal_date" date NOT NULL,
	"terminal_id" integer,
	"seller_code" text,
	"lines" integer NOT NULL,
	"quantity" numeric(16, 3) NOT NULL,
	"amount_cents" bigint NOT NULL,
	"articles" text[] NOT NULL,
	CONSTRAINT "daily_corrections_key" UNIQUE NULLS NOT DISTINCT("site_id","fiscal_date","terminal_id","seller_code")
);
--> statement-breakpoint
-- Sales loaded before this table existed: their voided lines, as aggregates.ts refreshes them.
INSERT INTO "daily_corrections" ("site_id", "fiscal_date", "terminal_id", "seller_code", "lines", "quantity", "amount_cents", "articles")
SELECT t.site_id, t.fiscal_date, t.terminal_id, t.seller_code, count(*)::int, sum(l.quantity),
       sum(round(l.quantity * l.unit_price_cents))::bigint, array_agg(DISTINCT l.article ORDER BY l.article)
  FROM tickets t JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id AND l.corrected
 WHERE NOT t.training_mode
 GROUP BY t.site_id, t.fiscal_date, t.terminal_id, t.seller_code;
--> statement-breakpoint
ANALYZE "daily_corrections";
