/**
 * Integrations as rows (issue #29, decision 0044): read one partner's (its defaults when never
 * saved), save it audit-logged, list its deliveries. Credentials are stored only encrypted
 * (secrets.ts), never answered, and the audit log records only whether some are set.
 */
import type { z } from 'zod';
import type {
  Destination,
  Integration,
  IntegrationDelivery,
  IntegrationSaveBodySchema,
  Layout,
  Partner,
} from '../../contract/integrations.ts';
import { ARTICLE_FIELDS, PARTNER_DATA, PAYMENT_FIELDS } from '../../contract/integrations.ts';
import { type AuditActor, recordAudit } from '../audit/audit-log.ts';
import { siteScope } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { checkUrl, DestinationError, folderPath } from './destination.ts';
import { defaultDestination, defaultLayout } from './partners.ts';
import { encryptSecret, SecretKeyMissingError } from './secrets.ts';

/** An integration as stored, with its id (null: never saved) and encrypted secret. */
export interface StoredIntegration extends Integration {
  id: number | null;
  secret: string | null;
}

interface Row {
  id: number;
  partner: Partner;
  enabled: boolean;
  sites: number[];
  ruleId: number | null;
  destination: Destination;
  secret: string | null;
  layout: Layout;
}

const SELECT = `SELECT id, partner, enabled, sites, rule_id AS "ruleId", destination, secret, layout FROM integrations`;

function stored(row: Row): StoredIntegration {
  return {
    id: row.id,
    partenaire: row.partner,
    actif: row.enabled,
    sites: row.sites,
    regleId: row.ruleId,
    destination: row.destination,
    identifiantsEnregistres: row.secret !== null,
    mise: row.layout,
    secret: row.secret,
  };
}

/** `partner`'s integration, or its defaults (disabled, no site) when never saved. */
export async function loadIntegration(db: Queryable, partner: Partner): Promise<StoredIntegration> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE partner = $1`, [partner]);
  if (rows[0]) return stored(rows[0]);
  return {
    id: null,
    partenaire: partner,
    actif: false,
    sites: [],
    regleId: null,
    destination: defaultDestination(partner),
    identifiantsEnregistres: false,
    mise: defaultLayout(partner),
    secret: null,
  };
}

/** The integration with id `id`, or null. */
export async function integrationById(db: Queryable, id: number): Promise<StoredIntegration | null> {
  const { rows } = await db.query<Row>(`${SELECT} WHERE id = $1`, [id]);
  return rows[0] ? stored(rows[0]) : null;
}

/** What the client sees: no secret. */
export function publicIntegration(i: StoredIntegration): Integration {
  const { id: _id, secret: _secret, ...rest } = i;
  return rest;
}

const invalid = (field: string, message: string, extra: Record<string, unknown> = {}) =>
  new DomainError('invalid', 'InvalidField', message, { field, ...extra });

/**
 * Creates or replaces `body.partenaire`'s integration; audit `integration.save` (credentials
 * shown only as `identifiantsEnregistres`).
 * @throws DomainError invalid `InvalidField` (details.field `destination`, `identifiants`,
 *   `colonnes`, `regleId`, `sites`; details.reason) for a bad folder or URL, credentials without
 *   `COMPTOIR_SECRET_KEY`, a column the partner's data lacks, an unknown rule, a site out of scope.
 */
export async function saveIntegration(
  tx: Queryable,
  actor: AuditActor & { userId: number },
  body: z.output<typeof IntegrationSaveBodySchema>,
  secretKey: string | undefined,
): Promise<Integration> {
  const partner = body.partenaire;
  const before = await loadIntegration(tx, partner);
  try {
    if (body.destination.type === 'folder') folderPath('/', body.destination.dossier);
    else checkUrl(body.destination.url);
  } catch (e) {
    if (e instanceof DestinationError) throw invalid('destination', e.message, { reason: e.reason });
    throw e;
  }
  const data = PARTNER_DATA[partner];
  const allowed: readonly string[] = data === 'articles' ? ARTICLE_FIELDS : PAYMENT_FIELDS;
  const wrong = body.mise.colonnes.find((c) => !allowed.includes(c.champ));
  if (wrong)
    throw invalid('colonnes', `field ${wrong.champ} is not in the ${data} data`, { champ: wrong.champ });
  if (body.regleId !== null) {
    const { rowCount } = await tx.query('SELECT 1 FROM report_rules WHERE id = $1', [body.regleId]);
    if (!rowCount) throw invalid('regleId', 'unknown rule');
  }
  const scope = new Set(await siteScope(tx, actor.userId));
  const sites = [...new Set(body.sites)].sort((a, b) => a - b);
  if (sites.some((s) => !scope.has(s))) throw invalid('sites', 'a site is outside your scope');
  let secret = before.secret;
  if (body.destination.type !== 'https') secret = null;
  else if (body.identifiants !== undefined) {
    try {
      secret =
        body.identifiants.length === 0 ? null : encryptSecret(secretKey, JSON.stringify(body.identifiants));
    } catch (e) {
      if (e instanceof SecretKeyMissingError)
        throw invalid('identifiants', e.message, { reason: 'SecretKeyMissing' });
      throw e;
    }
  }
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO integrations (partner, enabled, sites, rule_id, destination, secret, layout)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (partner) DO UPDATE SET enabled = excluded.enabled, sites = excluded.sites,
       rule_id = excluded.rule_id, destination = excluded.destination, secret = excluded.secret,
       layout = excluded.layout, updated_at = now()
     RETURNING id`,
    [partner, body.actif, sites, body.regleId, body.destination, secret, body.mise],
  );
  const after = await loadIntegration(tx, partner);
  await recordAudit(tx, actor, {
    action: 'integration.save',
    targetId: rows[0]!.id,
    before: before.id === null ? null : { ...publicIntegration(before) },
    after: { ...publicIntegration(after) },
  });
  return publicIntegration(after);
}

/** The last `limit` deliveries of `partner`'s integration, newest first. */
export async function listDeliveries(
  db: Queryable,
  partner: Partner,
  limit = 200,
): Promise<IntegrationDelivery[]> {
  const { rows } = await db.query<IntegrationDelivery>(
    `SELECT d.site_id AS "siteId", to_char(d.fiscal_date, 'YYYY-MM-DD') AS "dateFiscale", d.status AS statut,
            d.file_name AS fichier, d.bytes::int AS octets, d.attempts AS tentatives, d.error AS erreur,
            to_char(d.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS le
       FROM integration_deliveries d JOIN integrations i ON i.id = d.integration_id
      WHERE i.partner = $1 ORDER BY d.updated_at DESC, d.id DESC LIMIT $2`,
    [partner, limit],
  );
  return rows;
}
