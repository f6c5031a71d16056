/**
 * Reference data of the signed-in user's scope (SPEC.md §4's loading order: sites, groups,
 * sellers, terminals): GET bo/getSites, bo/getEnseignes, bo/getSirets,
 * bo/infra/getRegroupements, bo/getCaisses, bo/getVendeurs. Every answer is limited to the
 * sites of `session.siteIds` (SPEC.md §6); groups and companies appear only through those sites.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CaissesAnswerSchema,
  EnseigneSchema,
  RegroupementSchema,
  type Seller,
  SiretSchema,
  type Site,
  SitesAnswerSchema,
  type Terminal,
  VendeursAnswerSchema,
} from '../../contract/api.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/connect.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

/** SPEC.md §3: a site in no group, or any site when the client type is TOTAL, is in group 'TOUS'. */
export const ALL_GROUP = 'TOUS';

const IdQuery = z.object({ id: UserIdParam });

interface SiteRow {
  id: number;
  libelle: string;
  company_id: number;
  currency: string;
  time_zone: string;
  code_implant: string | null;
  extras: Record<string, unknown>;
  groupes: string[];
}

export async function referenceRoutes(
  app: FastifyInstance,
  options: { database: Database; config: Pick<Config, 'distribution'> },
) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;
  const tags = ['reference data'];

  api.get(
    '/bo/getSites',
    {
      config: { rights: 'GET bo/getSites' },
      schema: {
        summary:
          "Sites of the user's scope with their groups (caisses and vendeurs come from getCaisses / getVendeurs)",
        tags,
        querystring: IdQuery,
        response: { 200: SitesAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const total = options.config.distribution === 'TOTAL';
      const { rows } = await pool.query<SiteRow>(
        `SELECT s.id, s.libelle, s.company_id, s.currency, s.time_zone, s.code_implant, s.extras,
              coalesce(array_agg(g.raison_sociale ORDER BY g.raison_sociale) FILTER (WHERE g.id IS NOT NULL), '{}') AS groupes
         FROM sites s LEFT JOIN group_sites gs ON gs.site_id = s.id LEFT JOIN groups g ON g.id = gs.group_id
        WHERE s.id = ANY($1) GROUP BY s.id ORDER BY s.id`,
        [session.siteIds],
      );
      return rows.map(
        (r): Site => ({
          restaurantId: r.id,
          libelle: r.libelle,
          societeId: r.company_id,
          currency: r.currency,
          timeZone: r.time_zone,
          caisses: [],
          vendeurs: [],
          groupe: total || r.groupes.length === 0 ? [ALL_GROUP] : r.groupes,
          extras: { ...r.extras, code_implant: r.code_implant },
        }),
      );
    },
  );

  api.get(
    '/bo/getEnseignes',
    {
      config: { rights: 'GET bo/getEnseignes' },
      schema: {
        summary:
          "Brands (enseignes) of the user's sites; a company without a brand trades under its raison sociale",
        tags,
        querystring: IdQuery,
        response: { 200: z.array(EnseigneSchema), ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { rows } = await pool.query<{ id: number; libelle: string; restaurant_ids: number[] }>(
        `SELECT min(c.id) AS id, coalesce(c.enseigne, c.raison_sociale) AS libelle,
              array_agg(s.id ORDER BY s.id) AS restaurant_ids
         FROM sites s JOIN companies c ON c.id = s.company_id
        WHERE s.id = ANY($1) GROUP BY 2 ORDER BY 2`,
        [session.siteIds],
      );
      return rows.map((r) => ({ id: r.id, libelle: r.libelle, restaurantIds: r.restaurant_ids }));
    },
  );

  api.get(
    '/bo/getSirets',
    {
      config: { rights: 'GET bo/getSirets' },
      schema: {
        summary: "Companies (raison sociale, SIRET) running the user's sites",
        tags,
        querystring: IdQuery,
        response: { 200: z.array(SiretSchema), ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { rows } = await pool.query<{
        id: number;
        siret: string | null;
        raison_sociale: string;
        restaurant_ids: number[];
      }>(
        `SELECT c.id, c.siret, c.raison_sociale, array_agg(s.id ORDER BY s.id) AS restaurant_ids
         FROM sites s JOIN companies c ON c.id = s.company_id
        WHERE s.id = ANY($1) GROUP BY c.id ORDER BY c.raison_sociale`,
        [session.siteIds],
      );
      return rows.map((r) => ({
        id: r.id,
        siret: r.siret,
        raisonSociale: r.raison_sociale,
        restaurantIds: r.restaurant_ids,
      }));
    },
  );

  api.get(
    '/bo/infra/getRegroupements',
    {
      config: { rights: 'GET bo/infra/getRegroupements' },
      schema: {
        summary: "Groups of sites holding at least one of the user's sites, restricted to those sites",
        tags,
        querystring: IdQuery,
        response: { 200: z.array(RegroupementSchema), ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { rows } = await pool.query<{
        id: number;
        raison_sociale: string;
        raisons_sociales: string[];
        restaurant_ids: number[];
      }>(
        `SELECT g.id, g.raison_sociale,
              array_agg(DISTINCT c.raison_sociale ORDER BY c.raison_sociale) AS raisons_sociales,
              array_agg(DISTINCT s.id ORDER BY s.id) AS restaurant_ids
         FROM groups g JOIN group_sites gs ON gs.group_id = g.id
              JOIN sites s ON s.id = gs.site_id JOIN companies c ON c.id = s.company_id
        WHERE s.id = ANY($1) GROUP BY g.id ORDER BY g.raison_sociale`,
        [session.siteIds],
      );
      // Groups are plain lists of sites here: they hold no company additions or removals.
      return rows.map((r) => ({
        id: r.id,
        raisonSociale: r.raison_sociale,
        raisonsSociales: r.raisons_sociales,
        restaurantIds: r.restaurant_ids,
        societesPlus: [],
        societesMoins: [],
      }));
    },
  );

  api.get(
    '/bo/getCaisses',
    {
      config: { rights: 'GET bo/getCaisses' },
      schema: {
        summary: "Terminals (caisses) of the user's sites, keyed by restaurantId",
        tags,
        querystring: IdQuery,
        response: { 200: CaissesAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { rows } = await pool.query<{ id: number; libelle: string; caisses: Terminal[] }>(
        `SELECT s.id, s.libelle,
              coalesce(json_agg(json_build_object('id', t.terminal_id, 'libelle', t.libelle) ORDER BY t.terminal_id)
                FILTER (WHERE t.terminal_id IS NOT NULL), '[]') AS caisses
         FROM sites s LEFT JOIN terminals t ON t.site_id = s.id
        WHERE s.id = ANY($1) GROUP BY s.id ORDER BY s.id`,
        [session.siteIds],
      );
      return Object.fromEntries(
        rows.map((r) => [
          String(r.id),
          { site: { restaurantId: r.id, libelle: r.libelle }, caisses: r.caisses },
        ]),
      );
    },
  );

  api.get(
    '/bo/getVendeurs',
    {
      config: { rights: 'GET bo/getVendeurs' },
      schema: {
        summary: "Sellers (vendeurs) of the user's sites, keyed by restaurantId",
        tags,
        querystring: IdQuery,
        response: { 200: VendeursAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { rows } = await pool.query<{ id: number; libelle: string; vendeurs: Seller[] }>(
        `SELECT s.id, s.libelle,
              coalesce(json_agg(json_build_object('code', v.code, 'nom', v.nom) ORDER BY v.nom, v.code)
                FILTER (WHERE v.code IS NOT NULL), '[]') AS vendeurs
         FROM sites s LEFT JOIN sellers v ON v.site_id = s.id
        WHERE s.id = ANY($1) GROUP BY s.id ORDER BY s.id`,
        [session.siteIds],
      );
      return Object.fromEntries(
        rows.map((r) => [
          String(r.id),
          { site: { restaurantId: r.id, libelle: r.libelle }, vendeurs: r.vendeurs },
        ]),
      );
    },
  );
}
