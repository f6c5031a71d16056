/**
 * Integrations as rows (issue #29, decision 0044): read one partner's (its defaults when never
 * saved), save it audit-logged, list its deliveries. Credentials are stored only encrypted
 * (secrets.ts), never answered, and the audit log records only whether some are set.
 */
import type { z } from 'zod';
import type {
  Destination,
  Header,
  Integration,
  IntegrationDelivery,
  IntegrationSaveBodySchema,
  Layout,
  Partner,
} from '../../contract/integrations.ts';
import { type AuditActor, recordAudit } from '../audit/audit-log.ts';
import { siteScope } from '../auth/scope.ts';
import type { Queryable } from '../db/queryable.ts';
import { DomainError } from '../errors.ts';
import { checkUrl, DestinationError, folderPath, headerProblem } from './destination.ts';
import { layoutProblem } from './layout.ts';
import { defaultDestination, defaultLayout } from './partners.ts';
import { decryptSecret, encryptSecret, SecretKeyMissingError } from './secrets.ts';

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

/** The stored secret header values by lower-case name; unreadable ones (key changed) are left out. */
function storedSecrets(secretKey: string | undefined, secret: string | null): Map<string, string> {
  const values = new Map<string, string>();
  if (secret === null || !secretKey) return values;
  try {
    for (const h of JSON.parse(decryptSecret(secretKey, secret)) as { nom: string; valeur: string }[])
      values.set(h.nom.toLowerCase(), h.valeur);
  } catch {
    // Encrypted with another key: the values must be typed again (MissingValue).
  }
  return values;
}

/**
 * The headers to store: public ones as they are, secret ones without their value (kept
 * encrypted in `secret`), and the encrypted secret values (null when there is none).
 * @throws DomainError invalid `InvalidField` (details.field `entetes`, details.index,
 *   details.reason a HeaderProblem or `SecretKeyMissing`).
 */
function splitHeaders(
  headers: readonly Header[],
  stored: string | null,
  secretKey: string | undefined,
): { entetes: Header[]; secret: string | null } {
  const values = storedSecrets(secretKey, stored);
  const problem = headerProblem(headers, new Set(values.keys()));
  if (problem) throw invalid('entetes', `header ${problem.index + 1}: ${problem.reason}`, { ...problem });
  const secrets = headers
    .filter((h) => h.secret)
    .map((h) => ({ nom: h.nom, valeur: h.valeur ?? values.get(h.nom.toLowerCase()) ?? '' }));
  const entetes = headers.map((h) =>
    h.secret ? { nom: h.nom, secret: true } : { nom: h.nom, valeur: h.valeur ?? '', secret: false },
  );
  if (secrets.length === 0) return { entetes, secret: null };
  try {
    return { entetes, secret: encryptSecret(secretKey, JSON.stringify(secrets)) };
  } catch (e) {
    if (e instanceof SecretKeyMissingError)
      throw invalid('entetes', e.message, {
        index: headers.findIndex((h) => h.secret),
        reason: 'SecretKeyMissing',
      });
    throw e;
  }
}

/**
 * Checks `body.mise` for `body.partenaire`.
 * @throws DomainError invalid `InvalidField` (details.field `colonnes`, details.index,
 *   details.reason a ColumnProblem).
 */
export function checkLayout(body: Pick<z.output<typeof IntegrationSaveBodySchema>, 'partenaire' | 'mise'>) {
  const problem = layoutProblem(body.partenaire, body.mise);
  if (problem)
    throw invalid('colonnes', `column ${problem.index + 1}: ${problem.reason}`, {
      ...problem,
      champ: body.mise.colonnes[problem.index]?.champ,
    });
}

/** `layout` with its column names trimmed, as stored and sent. */
export function trimmedLayout(layout: Layout): Layout {
  return { ...layout, colonnes: layout.colonnes.map((c) => ({ ...c, nom: c.nom.trim() })) };
}

/**
 * Creates or replaces `body.partenaire`'s integration; audit `integration.save` (secret header
 * values left out: they are not in the destination, only encrypted in `secret`).
 * @throws DomainError invalid `InvalidField` (details.field `destination`, `entetes`, `colonnes`,
 *   `regleId`, `sites`; details.index and details.reason for a column or a header) for a bad folder
 *   or URL, a refused header, secret headers without `COMPTOIR_SECRET_KEY`, a refused column, an
 *   unknown rule, a site out of scope.
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
  checkLayout(body);
  if (body.regleId !== null) {
    const { rowCount } = await tx.query('SELECT 1 FROM report_rules WHERE id = $1', [body.regleId]);
    if (!rowCount) throw invalid('regleId', 'unknown rule');
  }
  const scope = new Set(await siteScope(tx, actor.userId));
  const sites = [...new Set(body.sites)].sort((a, b) => a - b);
  if (sites.some((s) => !scope.has(s))) throw invalid('sites', 'a site is outside your scope');
  let destination: Destination = body.destination;
  let secret: string | null = null;
  if (destination.type === 'https') {
    const split = splitHeaders(destination.entetes, before.secret, secretKey);
    destination = { ...destination, entetes: split.entetes };
    secret = split.secret;
  }
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO integrations (partner, enabled, sites, rule_id, destination, secret, layout)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (partner) DO UPDATE SET enabled = excluded.enabled, sites = excluded.sites,
       rule_id = excluded.rule_id, destination = excluded.destination, secret = excluded.secret,
       layout = excluded.layout, updated_at = now()
     RETURNING id`,
    [partner, body.actif, sites, body.regleId, destination, secret, trimmedLayout(body.mise)],
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
