/**
 * The rights table (DESIGN.md §4): one place that says which right each API route and each
 * screen needs. The server enforces it on every route (a route missing from API_RIGHTS is a
 * start-up error); the client uses SCREEN_RIGHTS to hide what a user cannot open.
 *
 * Rights named by SPEC.md §3 keep their names; the others are ours (SPEC.md §6: "mapping of
 * rights to screens: not shown").
 */

/** Every right a profile can hold. */
export const RIGHTS = [
  // SPEC.md §3
  'CONFIGURATION',
  'ACCES_BASE',
  'FEC_CONFIGURATION',
  'LIMITATION_SITE',
  'RAPPORTS_ANOMALIES',
  // Ours
  'RAPPORTS',
  'TICKETS',
  'COMPTAGE',
  'COFFRE',
  'RECUS',
  'BI',
  'EVENEMENTS',
] as const;
export type Right = (typeof RIGHTS)[number];

/**
 * What a route needs: `public` (no session), `session` (any signed-in user), or a list of
 * rights of which the user must hold at least one.
 */
export type Requirement = 'public' | 'session' | { anyOf: readonly Right[] };

/**
 * API routes (path relative to the API base, without the leading slash, method first) and the
 * requirement of each. Every route the server registers must appear here.
 */
export const API_RIGHTS = {
  'GET version': 'public',
  'GET distribution': 'public',
  'GET docs': 'public',
  'GET bo/connexion': 'public', // authenticates with the password itself
  'GET bo/logout': 'session',
  'GET bo/getSites': 'session',
  'GET bo/getEnseignes': 'session',
  'GET bo/getSirets': 'session',
  'GET bo/infra/getRegroupements': 'session',
  'GET bo/getCaisses': 'session',
  'GET bo/getVendeurs': 'session',
  'GET bo/rapport/metrics': { anyOf: ['RAPPORTS'] },
  'GET bo/getReport': { anyOf: ['RAPPORTS'] },
  'POST bo/getReport': { anyOf: ['RAPPORTS'] },
  'GET bo/getReportSite': { anyOf: ['RAPPORTS'] },
  'GET bo/getResultsData': { anyOf: ['RAPPORTS'] },
  'GET bo/getResultsChoices': { anyOf: ['RAPPORTS'] },
  'GET bo/getGroupements': { anyOf: ['RAPPORTS'] },
  'GET bo/getAllReportsSpecBK': { anyOf: ['RAPPORTS'] },
  'GET bo/fec/export': { anyOf: ['FEC_CONFIGURATION'] },
  'GET bo/fec/plan': { anyOf: ['FEC_CONFIGURATION'] },
  'POST bo/fec/savePlan': { anyOf: ['FEC_CONFIGURATION'] },
  'GET bo/fec/recurrences': { anyOf: ['FEC_CONFIGURATION'] },
  'POST bo/fec/saveRecurrence': { anyOf: ['FEC_CONFIGURATION'] },
  'POST bo/fec/deleteRecurrence': { anyOf: ['FEC_CONFIGURATION'] },
  'POST bo/fec/runRecurrenceNow': { anyOf: ['FEC_CONFIGURATION'] },
  'GET bo/fec/files': { anyOf: ['FEC_CONFIGURATION'] },
  'GET bo/fec/file': { anyOf: ['FEC_CONFIGURATION'] },
  'GET bo/backupDataBase': { anyOf: ['ACCES_BASE'] },
  'GET bo/restoreDataBase': { anyOf: ['ACCES_BASE'] },
  'GET bo/reindexationDataBase': { anyOf: ['ACCES_BASE'] },
  'GET bo/getBackupFiles': { anyOf: ['ACCES_BASE'] },
  'GET bo/isAutobackUpActive': { anyOf: ['ACCES_BASE'] },
  'GET bo/getAutoBackupDataBaseConfig': { anyOf: ['ACCES_BASE'] },
  'POST bo/saveAutoBackupDataBaseConfig': { anyOf: ['ACCES_BASE'] },
  'GET bo/database/status': { anyOf: ['ACCES_BASE'] },
  'POST bo/database/dropPrevious': { anyOf: ['ACCES_BASE'] },
  'GET exports/status': { anyOf: ['RAPPORTS'] },
  'GET exports/list': { anyOf: ['RAPPORTS'] },
  'GET exports/download': { anyOf: ['RAPPORTS'] },
  'GET bo/home/:widget': 'session',
  'GET bo/getRepartition': { anyOf: ['RAPPORTS'] },
  'GET bo/tickets/search': { anyOf: ['TICKETS'] },
  'GET bo/tickets/detail': { anyOf: ['TICKETS'] },
  'GET bo/favoris': { anyOf: ['RAPPORTS', 'BI'] },
  'POST bo/favoris/save': { anyOf: ['RAPPORTS', 'BI'] },
  'GET bo/favoris/remove': { anyOf: ['RAPPORTS', 'BI'] },
  // Counting (issue #3, src/contract/counting.ts)
  'GET bo/getListRules': { anyOf: ['COMPTAGE', 'CONFIGURATION'] },
  'GET bo/updateRule': { anyOf: ['CONFIGURATION'] },
  'GET bo/comptage/expected': { anyOf: ['COMPTAGE'] },
  'GET bo/comptage/list': { anyOf: ['COMPTAGE'] },
  'POST bo/comptage/save': { anyOf: ['COMPTAGE'] },
  'GET bo/documentsManager/readRecusManager': { anyOf: ['RECUS'] },
  'GET bo/documentsManager/readDocument': { anyOf: ['RECUS'] },
  'POST bo/documentsManager/createDocument': { anyOf: ['RECUS'] },
  'POST bo/documentsManager/updateDocument': { anyOf: ['RECUS'] },
  'GET coffre': { anyOf: ['COFFRE'] },
  'POST coffre/save': { anyOf: ['COFFRE'] },
  'GET fluxfin/declare_et_en_attente_de_signatures': { anyOf: ['COFFRE'] },
  'POST fluxfin/contre_signe': { anyOf: ['COFFRE'] },
  'GET bo/checkContreCode': { anyOf: ['COFFRE'] },
  'POST bo/setContreCode': { anyOf: ['COFFRE'] },
  'GET bo/home/envoieMail': { anyOf: ['COFFRE'] },
  'GET bo/home/envoieMailManquant': { anyOf: ['COFFRE', 'COMPTAGE'] },
  // Administration, my account, password reset, messages (issue #18, src/contract/administration.ts).
  // getUtilisateur / saveUtilisateur: one's own account with a session; another user's needs
  // CONFIGURATION (checked by the route). getRegroupements without `id` is administration's list.
  'GET bo/infra/getUtilisateur': 'session',
  'POST bo/infra/saveUtilisateur': 'session',
  'GET bo/infra/getSocietes': { anyOf: ['CONFIGURATION'] },
  'GET bo/infra/getProfils': { anyOf: ['CONFIGURATION'] },
  'GET bo/infra/getUtilisateurs': { anyOf: ['CONFIGURATION'] },
  'GET bo/infra/getDroits': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/newSociete': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/saveSociete': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/newSite': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/saveSite': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/newRegroupement': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/saveRegroupement': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/newProfile': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/saveProfile': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/newUtilisateur': { anyOf: ['CONFIGURATION'] },
  'GET bo/infra/removeSociete': { anyOf: ['CONFIGURATION'] },
  'GET bo/infra/removeRegroupement': { anyOf: ['CONFIGURATION'] },
  'GET bo/infra/removeProfil': { anyOf: ['CONFIGURATION'] },
  'GET bo/infra/removeUtilisateur': { anyOf: ['CONFIGURATION'] },
  'GET bo/infra/getAudit': { anyOf: ['CONFIGURATION'] },
  'GET bo/infra/getMessages': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/newMessage': { anyOf: ['CONFIGURATION'] },
  'POST bo/infra/saveMessage': { anyOf: ['CONFIGURATION'] },
  'GET bo/infra/removeMessage': { anyOf: ['CONFIGURATION'] },
  'GET bo/mails/outbox': { anyOf: ['CONFIGURATION'] },
  'GET bo/mails/outbox/message': { anyOf: ['CONFIGURATION'] },
  // The guided start-up (issue #30, decision record 0041).
  'GET bo/miseEnRoute': { anyOf: ['ACCES_BASE'] },
  'GET bo/miseEnRoute/etat': { anyOf: ['ACCES_BASE'] },
  'POST bo/miseEnRoute/mailTest': { anyOf: ['ACCES_BASE'] },
  'GET messages/all': 'session',
  'POST messages/dismiss': 'session',
  'GET reinit/sendReinitMail': 'public',
  'GET reinit/reinitPassword': 'public',
  'POST reinit/reinitPassword': 'public',
  // Local events and forecasts (issue #19, src/contract/events.ts, src/contract/forecast.ts).
  'GET withCredentials/collab/configurationEvenements': { anyOf: ['RAPPORTS', 'BI', 'EVENEMENTS'] },
  'GET withCredentials/collab/previsions': { anyOf: ['RAPPORTS', 'BI'] },
  'PUT withCredentials/collab/addEvenementLocal': { anyOf: ['EVENEMENTS'] },
  'POST withCredentials/collab/changeEvenementLocal': { anyOf: ['EVENEMENTS'] },
  'DELETE withCredentials/collab/deleteEvenementLocal': { anyOf: ['EVENEMENTS'] },
  // KPI/BI area and anomalies (issue #19).
  'GET bo/bi/explore': { anyOf: ['BI'] },
  'GET bo/bi/totalKPI': { anyOf: ['BI'] },
  'GET bo/bi/tracker': { anyOf: ['BI'] },
  'GET bo/bi/anomalies': { anyOf: ['RAPPORTS_ANOMALIES'] },
  'POST bo/outbox/batch': 'session', // each item checked with its own right (contract/outbox-batch.ts)
  // Recurring report e-mails (issue #28, src/contract/subscriptions.ts): own rows with RAPPORTS, all with CONFIGURATION.
  'GET bo/recurrences/regles': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'POST bo/recurrences/regles/save': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'POST bo/recurrences/regles/remove': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'GET bo/recurrences/destinataires': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'POST bo/recurrences/destinataires/save': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'POST bo/recurrences/destinataires/remove': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'GET bo/recurrences/abonnements': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'POST bo/recurrences/abonnements/save': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'POST bo/recurrences/abonnements/remove': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'POST bo/recurrences/abonnements/send': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'GET bo/recurrences/abonnements/preview': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  'GET bo/recurrences/abonnements/envois': { anyOf: ['RAPPORTS', 'CONFIGURATION'] },
  // Alerts (issue #28 "Alerts", src/contract/alerts.ts): own alerts with RAPPORTS or RAPPORTS_ANOMALIES, all with CONFIGURATION.
  'GET bo/recurrences/alertes': { anyOf: ['RAPPORTS', 'RAPPORTS_ANOMALIES', 'CONFIGURATION'] },
  'POST bo/recurrences/alertes/save': { anyOf: ['RAPPORTS', 'RAPPORTS_ANOMALIES', 'CONFIGURATION'] },
  'POST bo/recurrences/alertes/remove': { anyOf: ['RAPPORTS', 'RAPPORTS_ANOMALIES', 'CONFIGURATION'] },
  'POST bo/recurrences/alertes/check': { anyOf: ['RAPPORTS', 'RAPPORTS_ANOMALIES', 'CONFIGURATION'] },
  // Partner integrations (issue #29, src/contract/integrations.ts, decision 0044): the right guarding /config/*.
  'GET bo/integrations/config': { anyOf: ['CONFIGURATION'] },
  'POST bo/integrations/save': { anyOf: ['CONFIGURATION'] },
  'POST bo/integrations/preview': { anyOf: ['CONFIGURATION'] },
  'POST bo/integrations/runNow': { anyOf: ['CONFIGURATION'] },
  'GET bo/integrations/runs': { anyOf: ['CONFIGURATION'] },
  'GET recurrences/desabonnement': 'public', // the signed token of the mail's link is the authority
  'POST recurrences/desabonnement': 'public',
  'GET recurrences/fichier': 'public',
  // Archive-first empty and partial empty (issue #30, decision 0040).
  'GET bo/emptyPartialDataBase': { anyOf: ['ACCES_BASE'] },
  'GET bo/emptyDataBase': { anyOf: ['ACCES_BASE'] },
  'GET bo/purgeRuns': { anyOf: ['ACCES_BASE'] },
  // What failed while nobody was signed in, for /home (issues #29 and #30, decision 0045): each kind then needs its own right.
  'GET bo/attention': { anyOf: ['ACCES_BASE', 'CONFIGURATION', 'FEC_CONFIGURATION'] },
} as const satisfies Record<string, Requirement>;
export type ApiRoute = keyof typeof API_RIGHTS;

/**
 * The GETs of SPEC.md §7 that change data (issue #17 item 5; issue #18: every `remove*`), declared
 * once. The server refuses at start-up (plugins/rights-guard.ts) a route of this list registered
 * without `config.write: true` (one transaction, Idempotency-Key honoured) or with a HEAD twin
 * (`exposeHeadRoute: false`: a HEAD would act too), and a GET with `config.write` missing from
 * it; the service worker never keeps their answers (contract/offline-reads.ts).
 *
 * `GET bo/logout` stays out: it only revokes the caller's own token, which a repeat or a HEAD
 * leaves revoked, and nothing is worth replaying.
 */
export const WRITE_GETS = [
  'GET bo/favoris/remove',
  'GET bo/updateRule',
  'GET bo/home/envoieMail',
  'GET bo/home/envoieMailManquant',
  'GET bo/infra/removeSociete',
  'GET bo/infra/removeRegroupement',
  'GET bo/infra/removeProfil',
  'GET bo/infra/removeUtilisateur',
  'GET bo/infra/removeMessage',
  'GET reinit/sendReinitMail',
  'GET reinit/reinitPassword',
  'GET bo/mails/outbox/message',
  'GET bo/miseEnRoute',
  'GET bo/emptyPartialDataBase',
  'GET bo/emptyDataBase',
  'GET bo/backupDataBase',
  'GET bo/restoreDataBase',
  'GET bo/reindexationDataBase',
] as const satisfies readonly ApiRoute[];

/** True when `key` names a GET that changes data ({@link WRITE_GETS}). */
export function isWriteGet(key: string): boolean {
  return (WRITE_GETS as readonly string[]).includes(key);
}

/**
 * The GETs that check a secret or act on the caller's credentials (issue #17 item 4): signing
 * in (the password), signing out (the token), checking a manager code, and the reset link's
 * calls. A HEAD twin of any of them would be a second, uncounted door (a HEAD with the right
 * password opened a session; a HEAD checkContreCode told the answer by its Content-Length), so
 * the server refuses at start-up (plugins/rights-guard.ts) one registered with a HEAD route.
 */
export const SECRET_GETS = [
  'GET bo/connexion',
  'GET bo/logout',
  'GET bo/checkContreCode',
  'GET reinit/sendReinitMail',
  'GET reinit/reinitPassword',
] as const satisfies readonly ApiRoute[];

/** True when `key` names a GET that checks a secret ({@link SECRET_GETS}). */
export function isSecretGet(key: string): boolean {
  return (SECRET_GETS as readonly string[]).includes(key);
}

/**
 * The GETs that render a document and record it in the report history (issue #32 item C.6): a
 * HEAD twin would render the PDF and write a history row to send only headers, so they have none
 * and HEAD answers 405 with `Allow: GET` (plugins/error-handler.ts).
 */
export const DOCUMENT_GETS = [
  'GET bo/getReport',
  'GET bo/getReportSite',
  'GET bo/getResultsData',
  'GET bo/getAllReportsSpecBK',
  'GET exports/download',
] as const satisfies readonly ApiRoute[];

/** True when `key` names a GET that renders a document ({@link DOCUMENT_GETS}). */
export function isDocumentGet(key: string): boolean {
  return (DOCUMENT_GETS as readonly string[]).includes(key);
}

/**
 * True when `key` names a GET that must have no HEAD twin: one that writes, checks a secret or
 * renders a document.
 */
export function forbidsHead(key: string): boolean {
  return isWriteGet(key) || isSecretGet(key) || isDocumentGet(key);
}

/** Screens (SPEC.md §2 routes) and the rights they need; absent means any signed-in user. */
export const SCREEN_RIGHTS: Record<string, Requirement> = {
  '/rapports': { anyOf: ['RAPPORTS'] },
  '/tickets': { anyOf: ['TICKETS'] },
  '/graphs': { anyOf: ['RAPPORTS'] },
  '/analyses/repartitions': { anyOf: ['RAPPORTS'] },
  '/analyses/listExports': { anyOf: ['RAPPORTS'] },
  '/configFavoris': { anyOf: ['RAPPORTS', 'BI'] },
  '/analyses/comptageCaisses': { anyOf: ['COMPTAGE'] },
  '/analyses/coffre': { anyOf: ['COFFRE'] },
  '/analyses/recuManagers': { anyOf: ['RECUS'] },
  '/recus': { anyOf: ['RECUS'] },
  '/bi': { anyOf: ['BI'] },
  '/tracker': { anyOf: ['BI'] },
  '/totalKPI': { anyOf: ['BI'] },
  '/anomalies': { anyOf: ['RAPPORTS_ANOMALIES'] },
  '/evenements': { anyOf: ['RAPPORTS', 'BI', 'EVENEMENTS'] },
  '/fec': { anyOf: ['FEC_CONFIGURATION'] },
  '/config/bdd': { anyOf: ['ACCES_BASE'] },
  '/config/miseenroute': { anyOf: ['ACCES_BASE'] },
  '/config/rules': { anyOf: ['CONFIGURATION'] },
  '/config/mails': { anyOf: ['CONFIGURATION'] },
  '/config/recurrences': { anyOf: ['CONFIGURATION'] },
  '/abonnements': { anyOf: ['RAPPORTS'] },
  '/config': { anyOf: ['CONFIGURATION'] },
};

/** True when `rights` satisfy `req` (`public` and `session` are decided by the caller). */
export function satisfies(req: Requirement, rights: readonly string[]): boolean {
  if (req === 'public' || req === 'session') return true;
  return req.anyOf.some((r) => rights.includes(r));
}

/** The requirement of a screen path: the longest SCREEN_RIGHTS prefix that matches, else `session`. */
export function screenRequirement(path: string): Requirement {
  let best: string | undefined;
  for (const p of Object.keys(SCREEN_RIGHTS)) {
    if ((path === p || path.startsWith(`${p}/`)) && (!best || p.length > best.length)) best = p;
  }
  return best ? SCREEN_RIGHTS[best]! : 'session';
}

/**
 * Screens SPEC.md §2 names whose rights exist but which are not built yet (issue #32 D.3): no
 * navigation entry or administration link leads to them, and their address says "coming" rather
 * than "page not found". The rights themselves stay (profiles keep them for the day the screen
 * comes); building a screen is deleting its line here.
 */
export const PENDING_SCREENS: readonly string[] = ['/arcole'];

/** True when `path` is (or is under) a screen of {@link PENDING_SCREENS}. */
export function isPendingScreen(path: string): boolean {
  return PENDING_SCREENS.some((p) => path === p || path.startsWith(`${p}/`));
}
