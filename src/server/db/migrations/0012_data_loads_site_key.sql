-- data_loads keyed by (site_id, id), like every other table that carries site_id, so a
-- distributed PostgreSQL can shard it by site (docs/operations/distributed-postgresql.md,
-- tests/architecture/distribution-keys.test.ts). The id stays unique from its sequence.
ALTER TABLE "data_loads" DROP CONSTRAINT "data_loads_pkey";--> statement-breakpoint
ALTER TABLE "data_loads" ADD CONSTRAINT "data_loads_site_id_id_pk" PRIMARY KEY("site_id","id");
