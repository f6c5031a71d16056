/**
 * Favourite reports (SPEC.md §3, issue #4 point 3) in the house style of SPEC.md §7 (DESIGN.md §4:
 * writes SPEC.md does not list get endpoints in the same style): `GET bo/favoris?id`,
 * `POST bo/favoris/save?id` and `GET bo/favoris/remove?id&favoriId`. Shapes in
 * src/contract/favourites.ts; what is kept and who sees it in favourites/user-favourites.ts
 * (another user's favourite answers 404 `NotFound`, sites out of scope are dropped, 400
 * `NoSitesSelected` when none is left).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  FavouriteSaveBodySchema,
  FavouriteSchema,
  FavouritesAnswerSchema,
} from '../../contract/favourites.ts';
import type { Database } from '../db/connect.ts';
import { listFavourites, removeFavourite, saveFavourite } from '../favourites/user-favourites.ts';
import { writeTx } from '../plugins/idempotency.ts';
import { errorResponses, ownSession, UserIdParam } from './common.ts';
import { INT4_MAX } from '../../contract/integers.ts';

const IdQuery = z.object({ id: UserIdParam });
const RemoveQuery = z.object({
  id: UserIdParam,
  favoriId: z.coerce.number().int().positive().max(INT4_MAX).describe('id of the favourite to delete'),
});

/** Registers GET bo/favoris, POST bo/favoris/save and GET bo/favoris/remove. */
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
    async function getFavourites(request) {
      const session = ownSession(request, request.query.id);
      return { favoris: await listFavourites(pool, session.userId, session.droits) };
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
    async function saveUserFavourite(request) {
      const session = ownSession(request, request.query.id);
      return saveFavourite(pool, session, request.body);
    },
  );

  api.get(
    '/bo/favoris/remove',
    {
      // A GET that deletes (contract/rights.ts WRITE_GETS): one transaction, Idempotency-Key
      // honoured, and no automatic HEAD twin, which would delete too.
      config: { rights: 'GET bo/favoris/remove', write: true },
      exposeHeadRoute: false,
      schema: {
        summary: 'Deletes one of the user’s own favourites (404 NotFound otherwise)',
        tags: ['favourites'],
        querystring: RemoveQuery,
        response: { 200: z.object({ id: z.number().int() }), ...errorResponses },
      },
    },
    async function removeUserFavourite(request) {
      const session = ownSession(request, request.query.id);
      const { favoriId } = request.query;
      await removeFavourite(writeTx(request), session.userId, favoriId, session.droits);
      return { id: favoriId };
    },
  );
}
