ALTER TABLE "daily_family_sales" ADD COLUMN "discount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "daily_hour_sales" ADD COLUMN "discount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "daily_seller_sales" ADD COLUMN "discount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "daily_terminal_sales" ADD COLUMN "discount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "daily_ticket_stats" ADD COLUMN "discount_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Sales loaded before these columns existed: their discounts, as aggregates.ts refreshes them (a
-- kept line whose amount runs against its ticket; schema-aggregates.ts). The discount lines are
-- read once, grouped by every key the five tables need, then folded into each table.
CREATE TEMP TABLE "discount_groups" ON COMMIT DROP AS
SELECT t.site_id, t.fiscal_date, extract(hour FROM (t.opened_at AT TIME ZONE s.time_zone))::int AS hour,
       t.terminal_id, t.seller_code, l.family, -sum(l.amount_cents)::bigint AS cents
  FROM tickets t
  JOIN sites s ON s.id = t.site_id
  JOIN ticket_lines l ON l.site_id = t.site_id AND l.ticket_id = t.ticket_id
 WHERE NOT t.training_mode AND NOT l.corrected
   AND CASE WHEN t.kind = 'SALE' THEN l.amount_cents < 0 ELSE l.amount_cents > 0 END
 GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
UPDATE "daily_ticket_stats" a SET "discount_cents" = d.cents
  FROM (SELECT site_id, fiscal_date, sum(cents)::bigint AS cents FROM discount_groups GROUP BY 1, 2) d
 WHERE a.site_id = d.site_id AND a.fiscal_date = d.fiscal_date;
--> statement-breakpoint
UPDATE "daily_hour_sales" a SET "discount_cents" = d.cents
  FROM (SELECT site_id, fiscal_date, hour, sum(cents)::bigint AS cents FROM discount_groups GROUP BY 1, 2, 3) d
 WHERE a.site_id = d.site_id AND a.fiscal_date = d.fiscal_date AND a.hour = d.hour;
--> statement-breakpoint
UPDATE "daily_terminal_sales" a SET "discount_cents" = d.cents
  FROM (SELECT site_id, fiscal_date, terminal_id, sum(cents)::bigint AS cents FROM discount_groups GROUP BY 1, 2, 3) d
 WHERE a.site_id = d.site_id AND a.fiscal_date = d.fiscal_date AND a.terminal_id IS NOT DISTINCT FROM d.terminal_id;
--> statement-breakpoint
UPDATE "daily_seller_sales" a SET "discount_cents" = d.cents
  FROM (SELECT site_id, fiscal_date, seller_code, sum(cents)::bigint AS cents FROM discount_groups GROUP BY 1, 2, 3) d
 WHERE a.site_id = d.site_id AND a.fiscal_date = d.fiscal_date AND a.seller_code IS NOT DISTINCT FROM d.seller_code;
--> statement-breakpoint
UPDATE "daily_family_sales" a SET "discount_cents" = d.cents
  FROM (SELECT site_id, fiscal_date, family, sum(cents)::bigint AS cents FROM discount_groups GROUP BY 1, 2, 3) d
 WHERE a.site_id = d.site_id AND a.fiscal_date = d.fiscal_date AND a.family IS NOT DISTINCT FROM d.family;
