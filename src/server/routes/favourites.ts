/**
 * Favourite reports (SPEC.md §3, issue #4 point 3) in the house style of SPEC.md §7 (DESIGN.md §4:
 * writes SPEC.md does not list get endpoints in the same style): `GET bo/favoris?id`,
 * `POST bo/favoris/save?id` and `GET bo/favoris/remove?id&favoriId`. Shapes in
 * src/contract/favourites.ts.
 *
 * Guarantees: a user only ever reads, changes or deletes their own favourites — another user's
 * favourite answers 404 `NotFound`, exactly as one that does not exist, so ids leak nothing.
 * Sites outside the user's scope (SPEC.md §6) are dropped on save, with the terminals and sellers
 * of those sites; a favourite naming sites of which none is in scope is refused (400
 * `NoSitesSelected`) rather than silently widened to "every site".
 *
 * The whole favourite but its name lives in the row's `request` JSON column, read back through
 * the contract's schema: fields added later (the sort, grouping and filter of /rapports: `tri`,
 * `regroupement`, `isFilters`, `filtre`, `condition`) take their defaults on rows saved before
 * them, so no migration is needed. Those are stored as given; bo/getReport checks them against
 * the class when the report runs (a favourite outlives a class's columns).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  type Favourite,
  FavouriteSaveBodySchema,
  FavouriteSchema,
  FavouritesAnswerSchema,
} from '../../contract/favourites.ts';
import type { Database } from '../db/connect.ts';
import { ApiHttpError } from '../plugins/errors.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';

const IdQuery = z.object({ id: UserIdParam });
const RemoveQuery = z.object({
  id: UserIdParam,
  favoriId: z.coerce.number().int().positive().describe('id of the favourite to delete'),
});

interface FavouriteRow {
  id: number;
  libelle: string;
  request: Record<string, unknown>;
}

/** The stored row as the contract's favourite; the row was checked by the same schema when saved. */
function toFavourite(row: FavouriteRow): Favourite {
  return FavouriteSchema.parse({ ...row.request, id: row.id, libelle: row.libelle });
}

function notFound(favoriId: number): ApiHttpError {
  return new ApiHttpError(404, 'NotFound', `no favourite ${favoriId} for this user`);
}

/**
 * Keeps what the user may see: sites of `scope`, and terminals and sellers of the kept sites
 * (of any site of the scope when no site is chosen).
 * @throws ApiHttpError 400 `NoSitesSelected` when sites were chosen and none is in scope.
 */
function restrictFavouriteToScope<T extends Pick<Favourite, 'lSites' | 'lCaisses' | 'vendeur'>>(
  favourite: T,
  scope: readonly number[],
): T {
  const inScope = new Set(scope);
  const lSites = favourite.lSites.filter((id) => inScope.has(id));
  if (favourite.lSites.length > 0 && lSites.length === 0) {
    throw new ApiHttpError(400, 'NoSitesSelected', "none of the favourite's sites is in the user's scope");
  }
  const kept = lSites.length > 0 ? new Set(lSites) : inScope;
  return {
    ...favourite,
    lSites: [...new Set(lSites)],
    lCaisses: favourite.lCaisses.filter((c) => kept.has(c.restaurantId)),
    vendeur: favourite.vendeur.filter((v) => kept.has(v.restaurantId)),
  };
}

export async function favouriteRoutes(app: FastifyInstance, options: { database: Database }) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { pool } = options.database;

  api.get(
    '/bo/favoris',
    {
      config: { rights: 'GET bo/favoris' },
      schema: {
        summary: "The signed-in user's favourite reports, by name",
        tags: ['favourites'],
        querystring: IdQuery,
        response: { 200: FavouritesAnswerSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { rows } = await pool.query<FavouriteRow>(
        `SELECT id, libelle, request FROM favourites WHERE user_id = $1
          ORDER BY lower(libelle), id`,
        [session.userId],
      );
      return { favoris: rows.map(toFavourite) };
    },
  );

  api.post(
    '/bo/favoris/save',
    {
      config: { rights: 'POST bo/favoris/save' },
      schema: {
        summary: 'Creates a favourite (no `id` in the body) or replaces one of the user’s own (with `id`)',
        description:
          'Sites outside the user’s scope are dropped with their terminals and sellers; ' +
          '400 NoSitesSelected when none of the chosen sites is left; 404 NotFound for an id the user does not own.',
        tags: ['favourites'],
        querystring: IdQuery,
        body: FavouriteSaveBodySchema,
        response: { 200: FavouriteSchema, ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { id: favoriId, libelle, ...rest } = restrictFavouriteToScope(request.body, session.siteIds);
      if (favoriId === undefined) {
        const { rows } = await pool.query<FavouriteRow>(
          `INSERT INTO favourites (user_id, libelle, request) VALUES ($1, $2, $3)
           RETURNING id, libelle, request`,
          [session.userId, libelle, rest],
        );
        return toFavourite(rows[0]!);
      }
      const { rows } = await pool.query<FavouriteRow>(
        `UPDATE favourites SET libelle = $3, request = $4, updated_at = now()
          WHERE id = $1 AND user_id = $2 RETURNING id, libelle, request`,
        [favoriId, session.userId, libelle, rest],
      );
      if (rows.length === 0) throw notFound(favoriId);
      return toFavourite(rows[0]!);
    },
  );

  api.get(
    '/bo/favoris/remove',
    {
      config: { rights: 'GET bo/favoris/remove' },
      schema: {
        summary: 'Deletes one of the user’s own favourites (404 NotFound otherwise)',
        tags: ['favourites'],
        querystring: RemoveQuery,
        response: { 200: z.object({ id: z.number().int() }), ...errorResponses },
      },
    },
    async (request) => {
      const session = ownSession(request, request.query.id);
      const { favoriId } = request.query;
      const { rowCount } = await pool.query('DELETE FROM favourites WHERE id = $1 AND user_id = $2', [
        favoriId,
        session.userId,
      ]);
      if (!rowCount) throw notFound(favoriId);
      return { id: favoriId };
    },
  );
}
