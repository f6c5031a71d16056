/**
 * The preview of a layout being edited (issue #29, decision 0044): the first lines of the file
 * as it would be sent, computed from the real data of one site and day with the same code as a
 * delivery (data.ts, layout.ts), decoded back from its encoding so a character the encoding
 * cannot hold shows as it will arrive. Reads only.
 */
import type { z } from 'zod';
import {
  type IntegrationPreview,
  type IntegrationPreviewBodySchema,
  PARTNER_DATA,
} from '../../contract/integrations.ts';
import iconv from 'iconv-lite';
import { siteScope } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { articleRows, dataSites, paymentRows } from './data.ts';
import { fileName, renderRecords } from './layout.ts';
import { checkLayout, trimmedLayout } from './store.ts';

/** Lines of the file answered at most (header included). */
export const PREVIEW_LINES = 11;

/**
 * The preview of `body.mise` for `body.partenaire`: on the first of `body.sites` within the scope
 * of `userId` (else the scope's first site), on `body.dateFiscale` or else that site's last day
 * with sales.
 * @throws DomainError invalid `InvalidField` (details.field `colonnes`) as a save would.
 */
export async function previewIntegration(
  db: Queryable,
  userId: number,
  body: z.output<typeof IntegrationPreviewBodySchema>,
): Promise<IntegrationPreview> {
  checkLayout(body);
  const layout = trimmedLayout(body.mise);
  const partner = body.partenaire;
  const scope = await siteScope(db, userId);
  const siteId = body.sites.find((s) => scope.includes(s)) ?? [...scope].sort((a, b) => a - b)[0];
  const [site] = siteId === undefined ? [] : await dataSites(db, [siteId]);
  if (!site) return { siteId: null, dateFiscale: null, fichier: '', lignes: [], totalLignes: 0 };
  let day = body.dateFiscale;
  if (!day) {
    const { rows } = await db.query<{ day: string | null }>(
      `SELECT to_char(max(fiscal_date), 'YYYY-MM-DD') AS day FROM daily_sales WHERE site_id = $1`,
      [site.id],
    );
    day = rows[0]?.day ?? new Date().toISOString().slice(0, 10);
  }
  const rows =
    PARTNER_DATA[partner] === 'articles'
      ? await articleRows(db, site, day)
      : await paymentRows(db, site, day);
  const records = renderRecords(rows, layout);
  return {
    siteId: site.id,
    dateFiscale: day,
    fichier: fileName(layout, partner, site.code ?? String(site.id), day),
    lignes: records
      .slice(0, PREVIEW_LINES)
      .map((r) => iconv.decode(iconv.encode(r, layout.encodage), layout.encodage)),
    totalLignes: records.length,
  };
}
