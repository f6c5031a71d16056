/**
 * A user's favourite reports (SPEC.md §3, issue #4 point 3): read, created, replaced and deleted
 * for their owner only. Shapes in src/contract/favourites.ts.
 *
 * Guarantees: a user only ever reads, changes or deletes their own favourites — another user's
 * favourite is `notFound` exactly as one that does not exist, so ids leak nothing. Sites outside
 * the user's scope (SPEC.md §6) are dropped on save, with the terminals and sellers of those
 * sites; a favourite naming sites of which none is in scope is refused (`NoSitesSelected`)
 * rather than silently widened to "every site". A favourite needs its own right
 * ({@link favouriteRight}: BI for a BI view, RAPPORTS otherwise): a user sees only those of the
 * rights they hold and cannot save one of a right they lack.
 *
 * The whole favourite but its name lives in the row's `request` JSON column, read back through
 * the contract's schema: fields added later (the sort, grouping and filter of /rapports: `tri`,
 * `regroupement`, `isFilters`, `filtre`, `condition`; the BI explorer's view `bi`) take their
 * defaults on rows saved before them, so no migration is needed. Those are stored as given; bo/getReport checks them against
 * the class when the report runs (a favourite outlives a class's columns).
 */
import type { z } from 'zod';
import {
  BI_FAVOURITE_CLASS,
  type Favourite,
  type FavouriteSaveBodySchema,
  FavouriteSchema,
  favouriteRight,
} from '../../contract/favourites.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';

/** A favourite to save as the contract's schema parsed it (defaults applied). */
export type FavouriteToSave = z.output<typeof FavouriteSaveBodySchema>;

interface FavouriteRow {
  id: number;
  libelle: string;
  request: Record<string, unknown>;
}

/**
 * SQL condition: the favourite row's right ({@link favouriteRight}, written again over the stored
 * JSON) is in the text array parameter `$R` (replaced by the caller's placeholder).
 */
const HELD_RIGHT_SQL = `(CASE WHEN request->'typeRapport'->>'className' = '${BI_FAVOURITE_CLASS}' THEN 'BI'
  ELSE 'RAPPORTS' END) = ANY($R::text[])`;

/** The stored row as the contract's favourite; the row was checked by the same schema when saved. */
function toFavourite(row: FavouriteRow): Favourite {
  return FavouriteSchema.parse({ ...row.request, id: row.id, libelle: row.libelle });
}

function notFound(favoriId: number): DomainError {
  return new DomainError('notFound', 'NotFound', `no favourite ${favoriId} for this user`);
}

/**
 * Keeps what the user may see: sites of `scope`, and terminals and sellers of the kept sites
 * (of any site of the scope when no site is chosen).
 * @throws DomainError invalid `NoSitesSelected` when sites were chosen and none is in scope.
 */
export function restrictFavouriteToScope<T extends Pick<Favourite, 'lSites' | 'lCaisses' | 'vendeur'>>(
  favourite: T,
  scope: readonly number[],
): T {
  const inScope = new Set(scope);
  const lSites = favourite.lSites.filter((id) => inScope.has(id));
  if (favourite.lSites.length > 0 && lSites.length === 0) {
    throw new DomainError(
      'invalid',
      'NoSitesSelected',
      "none of the favourite's sites is in the user's scope",
    );
  }
  const kept = lSites.length > 0 ? new Set(lSites) : inScope;
  return {
    ...favourite,
    lSites: [...new Set(lSites)],
    lCaisses: favourite.lCaisses.filter((c) => kept.has(c.restaurantId)),
    vendeur: favourite.vendeur.filter((v) => kept.has(v.restaurantId)),
  };
}

/**
 * The favourites of user `userId` whose right ({@link favouriteRight}) is among `droits`, by name
 * (case-insensitive), then id.
 */
export async function listFavourites(
  db: Queryable,
  userId: number,
  droits: readonly string[],
): Promise<Favourite[]> {
  const { rows } = await db.query<FavouriteRow>(
    `SELECT id, libelle, request FROM favourites WHERE user_id = $1
      ORDER BY lower(libelle), id`,
    [userId],
  );
  return rows.map(toFavourite).filter((f) => droits.includes(favouriteRight(f)));
}

/**
 * Creates a favourite for `owner` (no `id` in `favourite`) or replaces one of theirs (with
 * `id`), after {@link restrictFavouriteToScope} on the owner's site scope.
 * @returns the favourite as stored (with its id and the contract's defaults).
 * @throws DomainError invalid `NoSitesSelected` (see {@link restrictFavouriteToScope});
 *   forbidden `Forbidden` when the owner lacks the favourite's right ({@link favouriteRight});
 *   notFound `NotFound` when `id` names no favourite of the owner.
 */
export async function saveFavourite(
  db: Queryable,
  owner: { userId: number; siteIds: readonly number[]; droits: readonly string[] },
  favourite: FavouriteToSave,
): Promise<Favourite> {
  const right = favouriteRight(favourite);
  if (!owner.droits.includes(right)) {
    throw new DomainError(
      'forbidden',
      'Forbidden',
      `a ${favourite.typeRapport.className} favourite needs ${right}`,
    );
  }
  const { id: favoriId, libelle, ...rest } = restrictFavouriteToScope(favourite, owner.siteIds);
  if (favoriId === undefined) {
    const { rows } = await db.query<FavouriteRow>(
      `INSERT INTO favourites (user_id, libelle, request) VALUES ($1, $2, $3)
       RETURNING id, libelle, request`,
      [owner.userId, libelle, rest],
    );
    return toFavourite(rows[0]!);
  }
  const { rows } = await db.query<FavouriteRow>(
    `UPDATE favourites SET libelle = $3, request = $4, updated_at = now()
      WHERE id = $1 AND user_id = $2 AND ${HELD_RIGHT_SQL.replace('$R', '$5')}
      RETURNING id, libelle, request`,
    [favoriId, owner.userId, libelle, rest, owner.droits],
  );
  if (rows.length === 0) throw notFound(favoriId);
  return toFavourite(rows[0]!);
}

/**
 * Deletes favourite `favoriId` of user `userId`, when its right is among `droits`.
 * @throws DomainError notFound `NotFound` when the user has no such favourite (or not of a right
 *   they hold: it is not theirs to see).
 */
export async function removeFavourite(
  db: Queryable,
  userId: number,
  favoriId: number,
  droits: readonly string[],
): Promise<void> {
  const { rowCount } = await db.query(
    `DELETE FROM favourites WHERE id = $1 AND user_id = $2 AND ${HELD_RIGHT_SQL.replace('$R', '$3')}`,
    [favoriId, userId, droits],
  );
  if (!rowCount) throw notFound(favoriId);
}
