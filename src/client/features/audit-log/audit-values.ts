/**
 * An audit entry's values and target in the reader's language (issue #18 follow-up): the server
 * stores ids and codes (src/server/administration, messages, account: `droits` as right codes,
 * `restaurantIds` as site ids, `profile`/`profileIds` as profile ids, `societe*` as company ids, `severity`, `language`,
 * `via` as codes, `texts` and `optionsTickets` as objects); the screen names them. Pure: the
 * catalogue and the names of sites, profiles and users come in through {@link AuditLookups}.
 */
import { valueText } from './audit-diff.ts';

/** What naming a value needs. `message(id)` is the catalogue's text, undefined when it has none. */
export interface AuditLookups {
  message: (id: string) => string | undefined;
  /** The words of valueText: an absent value, true, false. */
  words: { empty: string; yes: string; no: string };
  /** Site id → libelle (the user's reference data). */
  sites: ReadonlyMap<number, string>;
  /** Profile id → titre (GET bo/infra/getProfils). */
  profiles: ReadonlyMap<number, string>;
  /** Company id → raisonSociale (GET bo/infra/getSocietes). */
  companies: ReadonlyMap<number, string>;
  /** User id → login (GET bo/infra/getUtilisateurs). */
  users: ReadonlyMap<number, string>;
  /** The interface language, whose text of a message names it first. */
  locale: string;
}

/** A catalogue label `prefix + code`, or the code itself when the catalogue has none. */
function coded(prefix: string, look: AuditLookups) {
  return (code: unknown) => look.message(`${prefix}${String(code)}`) ?? String(code);
}

/** Ids named through `names`; an id without a name (since removed, out of scope) stays `#id`. */
function named(names: ReadonlyMap<number, string>) {
  return (id: unknown) => (typeof id === 'number' ? (names.get(id) ?? `#${id}`) : String(id));
}

/** A list or a single value, each item through `one`; empty → the "none" word. */
function each(value: unknown, one: (v: unknown) => string, look: AuditLookups): string {
  const list = Array.isArray(value) ? value : [value];
  return list.length === 0 ? look.words.empty : list.map(one).join(', ');
}

/** Per-language texts `{ fr: …, en: … }` as "fr: …; en: …", the reader's language first. */
function textsText(value: Record<string, unknown>, look: AuditLookups): string {
  const keys = Object.keys(value).sort((a, b) => Number(b === look.locale) - Number(a === look.locale));
  return keys.map((k) => `${k}: ${String(value[k])}`).join('; ');
}

/** An object as "key: value; …", keys through `key` and values as plain values. */
function objectText(value: Record<string, unknown>, key: (k: string) => string, look: AuditLookups): string {
  const keys = Object.keys(value);
  if (keys.length === 0) return look.words.empty;
  return keys.map((k) => `${key(k)}: ${plainText(value[k], look)}`).join('; ');
}

/** A value with no field-specific meaning: objects with a name by their name, others by their fields. */
function plainText(value: unknown, look: AuditLookups): string {
  if (Array.isArray(value))
    return value.length === 0 ? look.words.empty : value.map((v) => plainText(v, look)).join(', ');
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const name = o.libelle ?? o.nom ?? o.titre ?? o.login ?? o.raisonSociale;
    return typeof name === 'string' ? name : objectText(o, (k) => k, look);
  }
  return valueText(value, look.words);
}

/** How each field the server records with ids or codes is named; other fields are plain values. */
const FIELD_TEXT: Record<string, (value: unknown, look: AuditLookups) => string> = {
  droits: (v, look) => each(v, coded('rights.', look), look),
  restaurantIds: (v, look) => each(v, named(look.sites), look),
  sites: (v, look) => each(v, named(look.sites), look),
  restaurantId: (v, look) => each(v, named(look.sites), look),
  societeId: (v, look) => each(v, named(look.companies), look),
  societesPlus: (v, look) => each(v, named(look.companies), look),
  societesMoins: (v, look) => each(v, named(look.companies), look),
  profile: (v, look) => each(v, named(look.profiles), look),
  profileIds: (v, look) => each(v, named(look.profiles), look),
  severity: (v, look) => each(v, coded('audit.severity.', look), look),
  language: (v, look) => each(v, coded('audit.language.', look), look),
  via: (v, look) => each(v, coded('audit.via.', look), look),
  texts: (v, look) => (isObject(v) ? textsText(v, look) : plainText(v, look)),
  optionsTickets: (v, look) =>
    isObject(v)
      ? objectText(v, (k) => look.message(`audit.ticketOption.${k}`) ?? k, look)
      : plainText(v, look),
};

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * `value` of field `field` as the reader reads it: rights by their labels, sites and profiles by
 * their names, severities, languages and the way a password was reset translated, per-language
 * texts as "fr: …; en: …", booleans yes/no, wire dates DD/MM/YYYY; absent → the "none" word.
 */
export function fieldValueText(field: string, value: unknown, look: AuditLookups): string {
  if (value === undefined || value === null || value === '') return look.words.empty;
  const text = FIELD_TEXT[field];
  return text ? text(value, look) : plainText(value, look);
}

/** A field's label (`audit.field.<name>`), or its raw name when the catalogue has none yet. */
export function fieldLabel(field: string, look: AuditLookups): string {
  return look.message(`audit.field.${field}`) ?? field;
}

/** An audit entry as far as naming its target needs. */
export interface AuditTarget {
  kind: string;
  targetId: string | null;
  before: Readonly<Record<string, unknown>> | null;
  after: Readonly<Record<string, unknown>> | null;
}

/** Where the lookups name a target of `kind` by its id. */
const NAMES_BY_KIND: Record<string, (look: AuditLookups) => ReadonlyMap<number, string>> = {
  user: (look) => look.users,
  profile: (look) => look.profiles,
  site: (look) => look.sites,
  company: (look) => look.companies,
};

/**
 * The target's name, or null when nothing names it: the name the entry recorded (after, else
 * before: login, titre, raisonSociale, libelle, a message's text in the reader's language), else
 * the user, profile, site or company of that id the lookups know.
 */
export function targetName(entry: AuditTarget, look: AuditLookups): string | null {
  for (const fields of [entry.after, entry.before]) {
    if (!fields) continue;
    for (const key of ['login', 'titre', 'raisonSociale', 'libelle']) {
      if (typeof fields[key] === 'string' && fields[key] !== '') return fields[key] as string;
    }
    const texts = fields.texts;
    if (isObject(texts)) {
      const text = texts[look.locale] ?? Object.values(texts)[0];
      if (typeof text === 'string' && text !== '') return text;
    }
  }
  const id = Number(entry.targetId);
  const names = NAMES_BY_KIND[entry.kind];
  return names && Number.isInteger(id) ? (names(look).get(id) ?? null) : null;
}
