/**
 * A client written from SPEC.md §7 works unchanged (issue #32 A): one table of the §7 calls, each
 * with exactly the parameters SPEC.md lists for it (list forms `sites[]` / `tpv[]`, form bodies
 * where SPEC.md says "form body"), and no parameter it does not list. Every call, sent by a user
 * holding its right, answers 2xx. The table follows SPEC.md §7 line by line, but for the
 * database calls of its last block (bo/miseEnRoute, backup, restore, automatic backup, reindex,
 * empties: issue #30), which need a state to act on (a backup file, every start-up step done)
 * and are called with SPEC's exact parameters by their own tests instead:
 * tests/server/database-routes.test.ts, purge-partial.test.ts and startup-calls.test.ts.
 *
 * Real app, real PostgreSQL, a real SMTP server for the calls that send mail.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RIGHTS } from '../../src/contract/rights.ts';
import { basic, createTestApp, type TestApp } from '../helpers/app.ts';
import { openTestMailbox, type TestMailbox } from '../helpers/smtp.ts';
import { type Chain, seedChain } from './fixtures.ts';

const PASSWORD = 'Spec-Calls-2026!';
const DAY = '2026-03-02';
const XRW = { 'x-requested-with': 'XMLHttpRequest' };

/** What the calls of the table may read: ids made by the set-up or by an earlier call. */
interface Ids {
  chain: Chain;
  chef: number;
  gerant: number;
  /** Made by earlier calls of the table. */
  made: Record<string, number | string>;
}

/** One §7 call as a SPEC.md client sends it. */
interface SpecCall {
  /** The SPEC.md §7 line it comes from. */
  spec: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and query, relative to the API base. */
  url: (ids: Ids) => string;
  /** A JSON body, or a form body (SPEC.md "form body"). */
  json?: (ids: Ids) => unknown;
  form?: (ids: Ids) => Record<string, string>;
  /** Who sends it: the all-sites administrator (default), or a one-site store manager. */
  as?: 'chef' | 'gerant';
  /** Keeps a value of the answer for later calls. */
  keep?: (answer: unknown, ids: Ids) => void;
}

const event = (ids: Ids) => ({
  typeEvenement: 'PROMOTION',
  designation: 'Semaine du goût',
  canalVente: 'ALL',
  typeImpact: 'Positive',
  tauxImpact: 10,
  dateDebut: '2026-03-02',
  dateFin: '2026-03-08',
  perim_affects: [ids.chain.sites.paris],
});

/** SPEC.md §7, in its order. */
const CALLS: SpecCall[] = [
  // Session and data
  { spec: 'GET bo/getSites?id', method: 'GET', url: (i) => `bo/getSites?id=${i.chef}` },
  { spec: 'GET bo/getEnseignes?id', method: 'GET', url: (i) => `bo/getEnseignes?id=${i.chef}` },
  { spec: 'GET bo/getSirets?id', method: 'GET', url: (i) => `bo/getSirets?id=${i.chef}` },
  {
    spec: 'GET bo/infra/getRegroupements?id',
    method: 'GET',
    url: (i) => `bo/infra/getRegroupements?id=${i.chef}`,
  },
  { spec: 'GET bo/getCaisses?id', method: 'GET', url: (i) => `bo/getCaisses?id=${i.chef}` },
  { spec: 'GET bo/getVendeurs?id', method: 'GET', url: (i) => `bo/getVendeurs?id=${i.chef}` },
  {
    spec: 'GET bo/infra/getUtilisateur?login',
    method: 'GET',
    url: () => 'bo/infra/getUtilisateur?login=gerant',
  },
  {
    spec: 'POST bo/infra/saveUtilisateur?id, form body',
    method: 'POST',
    url: (i) => `bo/infra/saveUtilisateur?id=${i.gerant}`,
    form: () => ({
      login: 'gerant',
      email: 'gerant@example.com',
      activationKey: '',
      theme: 'light',
      couleur: 'primary',
      societesIdPlus: '',
      societesIdMoins: '',
      updatePassword: 'false',
      password: '',
      rePasswordKey: '',
    }),
  },
  { spec: 'GET reinit/sendReinitMail?user', method: 'GET', url: () => 'reinit/sendReinitMail?user=gerant' },
  // Reports
  { spec: 'GET bo/rapport/metrics?id', method: 'GET', url: (i) => `bo/rapport/metrics?id=${i.chef}` },
  {
    spec: 'GET bo/getResultsChoices?id&RapportGeneralClassName',
    method: 'GET',
    url: (i) => `bo/getResultsChoices?id=${i.chef}&RapportGeneralClassName=RapportVentes`,
  },
  {
    spec: 'GET bo/getReport?… (every SPEC parameter, sites[] and tpv[] lists)',
    method: 'GET',
    url: (i) =>
      `bo/getReport?id=${i.chef}&rapportClassName=RapportVentes&typeRapport=Daily&dateDebut=${DAY}&dateFin=${DAY}` +
      `&operation=VENTE&format=JSON&sites[]=${i.chain.sites.paris}&sites[]=${i.chain.sites.lyon}&tpv[]=1&tpv[]=2` +
      '&trancheHoraire=false&heureDebut=12:00&heureFin=23:00&vendeurs=&filtre=&condition=&tri=&regroupement=' +
      '&isFilters=false&trainingMode=false',
  },
  {
    spec: 'GET bo/getReport?… with datefiscales[] instead of dateDebut/dateFin',
    method: 'GET',
    url: (i) =>
      `bo/getReport?id=${i.chef}&rapportClassName=RapportVentes&typeRapport=Daily&datefiscales[]=${DAY}` +
      `&datefiscales[]=2026-03-01&operation=VENTE&format=CSV&sites[]=${i.chain.sites.paris}`,
  },
  {
    spec: 'GET bo/getReport single-site variant',
    method: 'GET',
    url: (i) =>
      `bo/getReportSite?id=${i.chef}&rapportClassName=RapportVentes&typeRapport=Daily&dateDebut=${DAY}` +
      `&dateFin=${DAY}&operation=VENTE&format=PDF&sites[]=${i.chain.sites.paris}`,
  },
  {
    spec: 'POST bo/getReport (JSON body)',
    method: 'POST',
    url: () => 'bo/getReport',
    json: (i) => ({
      id: i.chef,
      rapportClassName: 'RapportVentes',
      typeRapport: 'Daily',
      operation: 'VENTE',
      trancheHoraire: false,
      format: 'JSON',
      language: 'fr',
      dateDebut: DAY,
      dateFin: DAY,
      sites: [i.chain.sites.paris],
    }),
  },
  {
    spec: 'GET bo/getResultsData?id&language',
    method: 'GET',
    url: (i) => `bo/getResultsData?id=${i.chef}&language=fr`,
  },
  {
    spec: 'GET bo/getResultsData?id&language (plus format=PDF on mobile)',
    method: 'GET',
    url: (i) => `bo/getResultsData?id=${i.chef}&language=fr&format=PDF`,
  },
  {
    spec: 'GET bo/getAllReportsSpecBK?id&site&dateDebut&dateFin',
    method: 'GET',
    url: (i) =>
      `bo/getAllReportsSpecBK?id=${i.chef}&site=${i.chain.sites.paris}&dateDebut=${DAY}&dateFin=${DAY}`,
  },
  {
    spec: 'GET bo/getGroupements?id&rapportGeneralClassName&filtre&restaurantId&dateDebut&dateFin',
    method: 'GET',
    url: (i) =>
      `bo/getGroupements?id=${i.chef}&rapportGeneralClassName=RapportVentes&filtre=SITE&restaurantId=${i.chain.sites.paris}` +
      `&dateDebut=${DAY}&dateFin=${DAY}`,
  },
  // Administration
  { spec: 'GET bo/infra/getSocietes', method: 'GET', url: () => 'bo/infra/getSocietes' },
  { spec: 'GET bo/infra/getRegroupements', method: 'GET', url: () => 'bo/infra/getRegroupements' },
  { spec: 'GET bo/infra/getProfils', method: 'GET', url: () => 'bo/infra/getProfils' },
  { spec: 'GET bo/infra/getUtilisateurs', method: 'GET', url: () => 'bo/infra/getUtilisateurs' },
  { spec: 'GET bo/infra/getDroits', method: 'GET', url: () => 'bo/infra/getDroits' },
  {
    spec: 'POST bo/infra/newSociete (raisonSociale, restaurantId)',
    method: 'POST',
    url: () => 'bo/infra/newSociete',
    json: () => ({ raisonSociale: 'Gamma SAS' }),
    keep: (a, i) => {
      i.made.societe = (a as { id: number }).id;
    },
  },
  {
    spec: 'POST bo/infra/saveSociete?id',
    method: 'POST',
    url: (i) => `bo/infra/saveSociete?id=${i.made.societe}`,
    json: () => ({ raisonSociale: 'Gamma SA' }),
  },
  {
    spec: 'POST bo/infra/newRegroupement',
    method: 'POST',
    url: () => 'bo/infra/newRegroupement',
    json: (i) => ({ raisonSociale: 'Sud', restaurantIds: [i.chain.sites.lyon] }),
    keep: (a, i) => {
      i.made.regroupement = (a as { id: number }).id;
    },
  },
  {
    spec: 'POST bo/infra/saveRegroupement?id',
    method: 'POST',
    url: (i) => `bo/infra/saveRegroupement?id=${i.made.regroupement}`,
    json: (i) => ({ raisonSociale: 'Sud-Est', restaurantIds: [i.chain.sites.lyon] }),
  },
  {
    spec: 'POST bo/infra/newProfile',
    method: 'POST',
    url: () => 'bo/infra/newProfile',
    json: (i) => ({ titre: 'Caissiers', droits: ['RAPPORTS'], societesIdPlus: [i.chain.companies.alpha] }),
    keep: (a, i) => {
      i.made.profile = (a as { id: number }).id;
    },
  },
  {
    spec: 'POST bo/infra/saveProfile?id (titre, societesIdPlus, societesIdMoins, droits, optionsTicket, criteres)',
    method: 'POST',
    url: (i) => `bo/infra/saveProfile?id=${i.made.profile}`,
    json: (i) => ({
      titre: 'Caissiers du soir',
      societesIdPlus: [i.chain.companies.alpha],
      societesIdMoins: [],
      droits: ['RAPPORTS'],
      optionsTicket: {},
      criteres: {},
    }),
  },
  {
    spec: 'POST bo/infra/newUtilisateur: query fields, body a list of key/value extras',
    method: 'POST',
    url: (i) =>
      `bo/infra/newUtilisateur?login=caissier&password=${encodeURIComponent(PASSWORD)}` +
      `&rePasswordKey=${encodeURIComponent(PASSWORD)}&email=caissier@example.com&profileId=${i.made.profile}` +
      `&activationKey=&theme=light&couleur=primary&societesIdPlus=&societesIdMoins=&role=CAISSIER&country=FR&language=fr`,
    json: () => [{ key: 'code_exploitant', value: 'EXP-42' }],
    keep: (a, i) => {
      i.made.utilisateur = (a as { id: number }).id;
    },
  },
  {
    spec: 'GET bo/infra/removeUtilisateur?id',
    method: 'GET',
    url: (i) => `bo/infra/removeUtilisateur?id=${i.made.utilisateur}`,
  },
  {
    spec: 'GET bo/infra/removeProfil?id',
    method: 'GET',
    url: (i) => `bo/infra/removeProfil?id=${i.made.profile}`,
  },
  {
    spec: 'GET bo/infra/removeRegroupement?id',
    method: 'GET',
    url: (i) => `bo/infra/removeRegroupement?id=${i.made.regroupement}`,
  },
  {
    spec: 'GET bo/infra/removeSociete?id',
    method: 'GET',
    url: (i) => `bo/infra/removeSociete?id=${i.made.societe}`,
  },
  { spec: 'GET messages/all', method: 'GET', url: () => 'messages/all' },
  {
    spec: 'GET bo/getListRules?id',
    method: 'GET',
    url: (i) => `bo/getListRules?id=${i.chef}`,
    keep: (a, i) => {
      const rules = a as
        | Array<{ id: number; libelle: string }>
        | { rules?: Array<{ id: number; libelle: string }> };
      const list = Array.isArray(rules) ? rules : (rules.rules ?? []);
      i.made.rule = list[0]?.id ?? 1;
      i.made.ruleLibelle = list[0]?.libelle ?? 'Règle';
    },
  },
  {
    spec: 'GET bo/updateRule?id&libelle&active',
    method: 'GET',
    url: (i) =>
      `bo/updateRule?id=${i.made.rule}&libelle=${encodeURIComponent(String(i.made.ruleLibelle))}&active=true`,
  },
  { spec: 'GET version', method: 'GET', url: () => 'version' },
  { spec: 'GET distribution', method: 'GET', url: () => 'distribution' },
  // Home, events, safe and receipts
  {
    spec: 'GET bo/home/{widget}: id, sites, datePerso, exploitant, service, horodatage, heureCourante, client, vendeurs',
    method: 'GET',
    url: (i) =>
      `bo/home/ventes?id=${i.chef}&sites=${i.chain.sites.paris},${i.chain.sites.lyon}&datePerso=${DAY}` +
      `&exploitant=&service=&horodatage=${Date.parse(`${DAY}T12:00:00Z`)}&heureCourante=12:00&client=web&vendeurs=`,
  },
  {
    spec: 'GET withCredentials/collab/configurationEvenements',
    method: 'GET',
    url: () => 'withCredentials/collab/configurationEvenements',
  },
  {
    spec: 'GET withCredentials/collab/previsions',
    method: 'GET',
    url: () => 'withCredentials/collab/previsions',
  },
  {
    spec: 'PUT withCredentials/collab/addEvenementLocal: body event',
    method: 'PUT',
    url: () => 'withCredentials/collab/addEvenementLocal',
    json: event,
    keep: (a, i) => {
      i.made.event = (a as { uuid_evt: string }).uuid_evt;
    },
  },
  {
    spec: 'PUT withCredentials/collab/addEvenementLocal: an object with perim_affects',
    method: 'PUT',
    url: () => 'withCredentials/collab/addEvenementLocal',
    json: (i) => {
      const { perim_affects, ...evenement } = event(i);
      return { evenement, perim_affects };
    },
  },
  {
    spec: 'POST withCredentials/collab/changeEvenementLocal: body event',
    method: 'POST',
    url: () => 'withCredentials/collab/changeEvenementLocal',
    json: (i) => ({ ...event(i), uuid_evt: i.made.event, designation: 'Semaine du goût 2026' }),
  },
  {
    spec: 'DELETE withCredentials/collab/deleteEvenementLocal: query evenement',
    method: 'DELETE',
    url: (i) => `withCredentials/collab/deleteEvenementLocal?evenement=${i.made.event}`,
  },
  { spec: 'GET exports/status: dateFiscale', method: 'GET', url: () => `exports/status?dateFiscale=${DAY}` },
  { spec: 'GET coffre: dateFiscale', method: 'GET', url: () => `coffre?dateFiscale=${DAY}` },
  {
    spec: 'GET coffre: ACTION, restaurantId, dateDebut, dateFin',
    method: 'GET',
    url: (i) =>
      `coffre?ACTION=getComptages&restaurantId=${i.chain.sites.paris}&dateDebut=${DAY}&dateFin=${DAY}`,
  },
  {
    spec: 'GET coffre: ACTION=getRecu, pdf=true, id',
    method: 'GET',
    url: (i) => `coffre?ACTION=getRecu&pdf=true&id=${i.made.safeCount}`,
  },
  {
    spec: 'GET bo/documentsManager/readRecusManager: dateFiscale',
    method: 'GET',
    url: () => `bo/documentsManager/readRecusManager?dateFiscale=${DAY}`,
  },
  {
    spec: 'POST bo/documentsManager/createDocument: query codeVendeur, codeManager, nomVendeur, nomManager; body complements',
    method: 'POST',
    as: 'gerant',
    url: () =>
      'bo/documentsManager/createDocument?codeVendeur=01&codeManager=M1&nomVendeur=Alice&nomManager=Marc',
    json: () => ({ montantCents: 1250, motif: 'Avance', commentaire: '' }),
    keep: (a, i) => {
      i.made.document = (a as { id: number }).id;
    },
  },
  {
    spec: 'POST bo/documentsManager/updateDocument: same plus documentId',
    method: 'POST',
    as: 'gerant',
    url: (i) =>
      `bo/documentsManager/updateDocument?codeVendeur=01&codeManager=M1&nomVendeur=Alice&nomManager=Marc&documentId=${i.made.document}`,
    json: () => ({ montantCents: 1300, motif: 'Avance', commentaire: 'corrigé' }),
  },
  {
    spec: 'GET bo/documentsManager/readDocument: documentId',
    method: 'GET',
    url: (i) => `bo/documentsManager/readDocument?documentId=${i.made.document}`,
  },
  {
    spec: 'GET bo/getRepartition: typeRepartition, statut, site, dateDebut, dateFin',
    method: 'GET',
    url: (i) =>
      `bo/getRepartition?typeRepartition=PAIEMENT&statut=VENTE&site=${i.chain.sites.paris}&dateDebut=${DAY}&dateFin=${DAY}`,
  },
  {
    spec: 'GET fluxfin/declare_et_en_attente_de_signatures: dateDebut, dateFin, id',
    method: 'GET',
    url: (i) => `fluxfin/declare_et_en_attente_de_signatures?dateDebut=${DAY}&dateFin=${DAY}&id=${i.chef}`,
  },
  {
    spec: 'POST fluxfin/contre_signe: query restaurantId, id, datefiscale, managerName, managerCode, commentaire',
    method: 'POST',
    url: (i) =>
      `fluxfin/contre_signe?restaurantId=${i.chain.sites.paris}&id=${i.chef}&datefiscale=${DAY}` +
      '&managerName=chef&managerCode=4321&commentaire=ok',
  },
  {
    spec: 'GET bo/home/envoieMail: idRecu, role, utilisateur, site',
    method: 'GET',
    url: (i) =>
      `bo/home/envoieMail?idRecu=${i.made.safeCount}&role=DIRECTEUR&utilisateur=chef&site=${i.chain.sites.paris}`,
  },
  {
    spec: 'GET bo/home/envoieMailManquant: role, id, site, datefiscale',
    method: 'GET',
    url: (i) =>
      `bo/home/envoieMailManquant?role=DIRECTEUR&id=${i.chef}&site=${i.chain.sites.paris}&datefiscale=${DAY}`,
  },
  {
    spec: 'GET bo/checkContreCode: id, code, contreCode',
    method: 'GET',
    url: (i) => `bo/checkContreCode?id=${i.chef}&code=chef&contreCode=4321`,
  },
  {
    spec: 'GET reinit/reinitPassword?email&resetPasswordKey&password',
    method: 'GET',
    url: (i) =>
      `reinit/reinitPassword?email=gerant@example.com&resetPasswordKey=${i.made.resetKey}` +
      `&password=${encodeURIComponent('Spec-Calls-New-2026!')}`,
  },
];

describe('the calls of SPEC.md §7 with exactly their parameters (issue #32 A)', () => {
  let t: TestApp;
  let mailbox: TestMailbox;
  const ids = { made: {} } as Ids;
  const headers: Record<'chef' | 'gerant', Record<string, string>> = { chef: {}, gerant: {} };

  beforeAll(async () => {
    mailbox = await openTestMailbox();
    t = await createTestApp({ config: { smtpUrl: mailbox.url, mailFrom: 'Comptoir <spec@example.com>' } });
    ids.chain = await seedChain(t.database.pool);
    // Every right but LIMITATION_SITE (one site at a time): the chain's administrator.
    const droits = RIGHTS.filter((r) => r !== 'LIMITATION_SITE');
    ids.chef = await t.createUser({ login: 'chef', password: PASSWORD, droits, allSites: true });
    ids.gerant = await t.createUser({
      login: 'gerant',
      password: PASSWORD,
      droits: ['RECUS', 'COFFRE', 'RAPPORTS'],
      restaurantIds: [ids.chain.sites.paris],
    });
    await t.database.pool.query(
      `UPDATE users SET role = 'DIRECTEUR', email = login || '@example.com' WHERE id = ANY($1)`,
      [[ids.chef, ids.gerant]],
    );
    headers.chef = await t.signIn('chef', PASSWORD);
    headers.gerant = await t.signIn('gerant', PASSWORD);
    // What the calls act on: a manager code for the countersignature, a safe count to mail.
    const code = await t.app.inject({
      method: 'POST',
      url: `/api/bo/setContreCode?id=${ids.chef}`,
      headers: headers.chef,
      payload: { contreCode: '4321' },
    });
    expect(code.statusCode, code.body).toBe(200);
    // Counted by the store manager, so that the administrator may countersign it.
    const safe = await t.app.inject({
      method: 'POST',
      url: `/api/coffre/save?id=${ids.gerant}`,
      headers: headers.gerant,
      payload: {
        site: ids.chain.sites.paris,
        dateFiscale: DAY,
        openingCents: 0,
        depositsCents: 10000,
        withdrawalsCents: 0,
        contents: [{ denominationCents: 5000, quantity: 2 }],
      },
    });
    expect(safe.statusCode, safe.body).toBe(200);
    ids.made.safeCount = safe.json<{ id: number }>().id;
  });
  afterAll(async () => {
    await t?.close();
    await mailbox?.close();
  });

  it('signs in with GET bo/connexion?username and Basic login:password', async () => {
    const res = await t.app.inject({
      url: '/api/bo/connexion?username=chef',
      headers: { ...XRW, authorization: basic('chef', PASSWORD) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: ids.chef, token: expect.any(String) });
  });

  it('answers 2xx to every other §7 call sent with exactly its SPEC parameters', async () => {
    const failures: string[] = [];
    for (const call of CALLS) {
      if (call.spec.startsWith('GET reinit/reinitPassword')) {
        // The key of the reset mail sent by GET reinit/sendReinitMail above.
        const link = mailbox.received
          .map((m) => m.text ?? '')
          .join('\n')
          .match(/[?&]key=([\w-]+)/);
        ids.made.resetKey = link?.[1] ?? 'missing';
      }
      const body = call.json?.(ids);
      const form = call.form?.(ids);
      const res = await t.app.inject({
        method: call.method,
        url: `/api/${call.url(ids)}`,
        headers: {
          ...headers[call.as ?? 'chef'],
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
        ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
        ...(body !== undefined
          ? { headers: { ...headers[call.as ?? 'chef'], 'content-type': 'application/json' } }
          : {}),
        ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
      });
      if (res.statusCode >= 300) failures.push(`${call.spec} → ${res.statusCode} ${res.body.slice(0, 300)}`);
      else if (call.keep && (res.headers['content-type'] ?? '').toString().includes('json'))
        call.keep(res.json(), ids);
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
