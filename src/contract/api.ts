/**
 * Shapes of the API of SPEC.md §7 that SPEC.md does not show (DESIGN.md §4). Wire names are
 * kept exactly as SPEC.md spells them (`restaurantId`, `libelle`, `droits`…). Every answer
 * schema here is used by the server route (response schema → OpenAPI) and by the client call.
 */
import { z } from 'zod';
import { TicketCriterionSchema } from './tickets.ts';
import { INT4_MAX } from './integers.ts';

// Plain constants live in constants.ts (no zod) so the client's login chunk stays small.
export { APP_VERSION, CLIENT_HEADER, CLIENT_HEADER_VALUE } from './constants.ts';

/** GET version — `version` is the server version text (global mode when it contains "CAS", SPEC.md §4). */
export const VersionAnswerSchema = z.object({ version: z.string() });
/** GET distribution — `nom` is the distribution (client) name; "TOTAL" switches total mode off (SPEC.md §4). */
export const DistributionAnswerSchema = z.object({ nom: z.string() });

/**
 * GET bo/connexion?username with `Authorization: Basic base64(login:password)`.
 * `token` is then used as `Basic base64(login:token)` on every later call (DESIGN.md §4).
 */
export const ConnexionAnswerSchema = z.object({
  id: z.number().int(),
  login: z.string(),
  droits: z.array(z.string()),
  currency: z.string(),
  role: z.string(),
  token: z.string(),
  codeExploitant: z.string().nullable(),
  language: z.string().nullable(),
  /**
   * The ticket search criteria (SPEC.md §9) the profile's `optionsTickets` allows (issue #18).
   * The server always sends it; a session the client stored before it existed lacks it, and
   * absent means every criterion.
   */
  criteresTickets: z.array(TicketCriterionSchema).optional(),
});
export type ConnexionAnswer = z.infer<typeof ConnexionAnswerSchema>;

/** A terminal (caisse) of a site. `id` is the terminal number within its site. */
export const TerminalSchema = z.object({ id: z.number().int().min(0).max(INT4_MAX), libelle: z.string() });
export type Terminal = z.infer<typeof TerminalSchema>;

/** A seller (vendeur) of a site. `code` is the seller's code within its site. */
export const SellerSchema = z.object({ code: z.string(), nom: z.string() });
export type Seller = z.infer<typeof SellerSchema>;

/**
 * A site (restaurant), SPEC.md §3. `groupe` lists the names of the groups holding the site,
 * or `['TOUS']` when it belongs to none. `caisses` and `vendeurs` are filled by getCaisses /
 * getVendeurs, empty in getSites. A site labelled 'NON REMPLI' is hidden by the client.
 */
export const SiteSchema = z.object({
  restaurantId: z.number().int(),
  libelle: z.string(),
  societeId: z.number().int(),
  currency: z.string(),
  timeZone: z.string(),
  caisses: z.array(TerminalSchema),
  vendeurs: z.array(SellerSchema),
  groupe: z.array(z.string()),
  extras: z.object({ code_implant: z.string().nullable() }).catchall(z.unknown()),
});
export type Site = z.infer<typeof SiteSchema>;
export const SitesAnswerSchema = z.array(SiteSchema);

/** GET bo/getCaisses — keyed by restaurantId: the site and its terminals ('site+caisses'). */
export const CaissesAnswerSchema = z.record(
  z.string(),
  z.object({
    site: z.object({ restaurantId: z.number().int(), libelle: z.string() }),
    caisses: z.array(TerminalSchema),
  }),
);
/** GET bo/getVendeurs — keyed by restaurantId: the site and its sellers ('site+vendeurs'). */
export const VendeursAnswerSchema = z.record(
  z.string(),
  z.object({
    site: z.object({ restaurantId: z.number().int(), libelle: z.string() }),
    vendeurs: z.array(SellerSchema),
  }),
);

/** A brand (enseigne) of the chain: GET bo/getEnseignes. */
export const EnseigneSchema = z.object({
  id: z.number().int(),
  libelle: z.string(),
  restaurantIds: z.array(z.number().int()),
});
/** A company's registration (SIRET) and the sites it runs: GET bo/getSirets. */
export const SiretSchema = z.object({
  id: z.number().int(),
  siret: z.string().nullable(),
  raisonSociale: z.string(),
  restaurantIds: z.array(z.number().int()),
});

/** A group of sites (regroupement), SPEC.md §3: GET bo/infra/getRegroupements. */
export const RegroupementSchema = z.object({
  id: z.number().int(),
  raisonSociale: z.string(),
  raisonsSociales: z.array(z.string()),
  restaurantIds: z.array(z.number().int()),
  societesPlus: z.array(z.number().int()),
  societesMoins: z.array(z.number().int()),
});
export type Regroupement = z.infer<typeof RegroupementSchema>;
