/**
 * The demo chain's fixed reference data (issue #2 §2): two companies, six French sites, their
 * groups, sellers, and the two brands' menus with French VAT rates. Kept apart from the
 * generator so the figures a demo shows can be read (and changed) in one place.
 *
 * VAT simplification (documented in the README): a brasserie serves on site, so food and soft
 * drinks are at 10 % and alcohol at 20 %; a bakery sells to take away, so bread, pastries and
 * cold drinks are at 5.5 %, while sandwiches, hot dishes and hot drinks (sold for immediate
 * consumption) are at 10 %. Each family has one rate.
 */
import type { Right } from '../../contract/rights.ts';

/** Brand style, driving the day-parts and ticket contents. */
export type SiteKind = 'brasserie' | 'bakery';

export interface DemoCompany {
  raisonSociale: string;
  enseigne: string;
  siret: string;
  codeLicence: string;
  kind: SiteKind;
}

export interface DemoSite {
  libelle: string;
  codeImplant: string;
  company: number;
  /** Tickets on an ordinary day of an ordinary month. */
  baseTickets: number;
  /** Seaside or lake town: summer peak, quiet winter. */
  tourist: boolean;
  /** `HH:mm`; a late bar's business day runs until 05:00. */
  dayStart: string;
  /** Late bar: tickets until 01:30 (needs a day start after that). */
  lateBar: boolean;
  /** Days of the week (0 = Sunday) the site is closed. */
  closedWeekdays: number[];
  terminals: number;
  sellers: string[];
  /** The site's manager as manager receipts name them (codeManager, nomManager; an identifier, not a countersignature code). */
  manager: { code: string; name: string };
}

export interface Article {
  name: string;
  /** Price incl. VAT, cents. */
  price: number;
}

export interface Family {
  name: string;
  /** VAT rate as text, as stored (`0.055`). */
  vat: string;
  /** VAT rate in thousandths (55 = 5.5 %), for exact integer arithmetic. */
  vatMille: number;
  articles: Article[];
}

export const COMPANIES: DemoCompany[] = [
  {
    raisonSociale: 'SAS Brasseries du Comptoir',
    enseigne: 'Le Comptoir',
    siret: '81234567610008',
    codeLicence: 'CPT-BRA-001',
    kind: 'brasserie',
  },
  {
    raisonSociale: 'SARL Fournil Ferrand',
    enseigne: 'Maison Ferrand',
    siret: '79345128710006',
    codeLicence: 'CPT-FER-001',
    kind: 'bakery',
  },
];

export const SITES: DemoSite[] = [
  {
    libelle: 'Le Comptoir Lyon Bellecour',
    codeImplant: 'LYO01',
    company: 0,
    baseTickets: 235,
    tourist: false,
    dayStart: '00:00',
    lateBar: false,
    closedWeekdays: [],
    terminals: 4,
    sellers: [
      'Camille Martin',
      'Julien Bernard',
      'Sophie Dubois',
      'Thomas Robert',
      'Léa Richard',
      'Nicolas Petit',
      'Manon Durand',
      'Antoine Leroy',
    ],
    manager: { code: 'M01', name: 'Isabelle Fontaine' },
  },
  {
    libelle: 'Le Comptoir Annecy Vieille Ville',
    codeImplant: 'ANN01',
    company: 0,
    baseTickets: 165,
    tourist: true,
    dayStart: '00:00',
    lateBar: false,
    closedWeekdays: [],
    terminals: 3,
    sellers: ['Chloé Moreau', 'Maxime Simon', 'Emma Laurent', 'Hugo Lefebvre', 'Inès Michel'],
    manager: { code: 'M02', name: 'Olivier Masson' },
  },
  {
    libelle: 'Le Comptoir Grenoble Grenette',
    codeImplant: 'GRE01',
    company: 0,
    baseTickets: 150,
    tourist: false,
    dayStart: '05:00',
    lateBar: true,
    closedWeekdays: [],
    terminals: 3,
    sellers: [
      'Lucas Garcia',
      'Sarah David',
      'Mathieu Bertrand',
      'Clara Roux',
      'Romain Vincent',
      'Pauline Fournier',
    ],
    manager: { code: 'M03', name: 'Nathalie Rey' },
  },
  {
    libelle: 'Maison Ferrand Nantes Graslin',
    codeImplant: 'NAN01',
    company: 1,
    baseTickets: 260,
    tourist: false,
    dayStart: '00:00',
    lateBar: false,
    closedWeekdays: [],
    terminals: 3,
    sellers: [
      'Élodie Morel',
      'Kevin Girard',
      'Audrey André',
      'Benoît Mercier',
      'Laura Blanc',
      'Yann Guérin',
      'Margaux Boyer',
    ],
    manager: { code: 'M04', name: 'Sandrine Lemoine' },
  },
  {
    libelle: 'Maison Ferrand Angers Ralliement',
    codeImplant: 'ANG01',
    company: 1,
    baseTickets: 150,
    tourist: false,
    dayStart: '00:00',
    lateBar: false,
    closedWeekdays: [1],
    terminals: 2,
    sellers: ['Céline Chevalier', 'Damien François', 'Justine Legrand', 'Florian Gauthier'],
    manager: { code: 'M05', name: 'Frédéric Colin' },
  },
  {
    libelle: 'Maison Ferrand La Rochelle Vieux-Port',
    codeImplant: 'LRO01',
    company: 1,
    baseTickets: 115,
    tourist: true,
    dayStart: '00:00',
    lateBar: false,
    closedWeekdays: [],
    terminals: 2,
    sellers: ['Marion Perrin', 'Alexis Robin', 'Anaïs Clément'],
    manager: { code: 'M06', name: 'Virginie Marchand' },
  },
];

/** Groups (regroupements) by region, plus a tourist group: Annecy and La Rochelle are in two groups. */
export const GROUPS: { name: string; sites: number[] }[] = [
  { name: 'Auvergne-Rhône-Alpes', sites: [0, 1, 2] },
  { name: 'Pays de la Loire', sites: [3, 4] },
  { name: 'Nouvelle-Aquitaine', sites: [5] },
  { name: 'Sites touristiques', sites: [1, 5] },
];

function family(name: string, vat: string, articles: [string, number][]): Family {
  const vatMille = Math.round(Number(vat) * 1000);
  return { name, vat, vatMille, articles: articles.map(([n, price]) => ({ name: n, price })) };
}

/** The brasserie menu (on site). */
export const BRASSERIE = {
  starters: family('Entrées', '0.1', [
    ['Œuf mayonnaise', 650],
    ['Soupe à l’oignon gratinée', 850],
    ['Salade de chèvre chaud', 1150],
    ['Terrine de campagne', 850],
    ['Os à moelle', 950],
    ['Escargots de Bourgogne (6)', 1250],
  ]),
  mains: family('Plats', '0.1', [
    ['Plat du jour', 1450],
    ['Steak frites', 1950],
    ['Confit de canard', 2150],
    ['Quenelle de brochet', 1890],
    ['Tartare de bœuf', 1850],
    ['Poisson du jour', 2250],
    ['Salade lyonnaise', 1550],
    ['Burger du Comptoir', 1790],
  ]),
  desserts: family('Desserts', '0.1', [
    ['Crème brûlée', 750],
    ['Tarte Tatin', 850],
    ['Mousse au chocolat', 700],
    ['Île flottante', 750],
    ['Café gourmand', 950],
    ['Profiteroles', 900],
  ]),
  softs: family('Boissons sans alcool', '0.1', [
    ['Eau minérale 50 cl', 450],
    ['Coca-Cola 33 cl', 450],
    ['Jus d’orange pressé', 550],
    ['Limonade artisanale', 480],
    ['Sirop à l’eau', 300],
  ]),
  alcohol: family('Vins et bières', '0.2', [
    ['Verre de Côtes-du-Rhône', 550],
    ['Pot lyonnais de Beaujolais', 1650],
    ['Bouteille de Saint-Joseph', 3900],
    ['Demi pression', 450],
    ['Pinte IPA', 850],
    ['Kir', 500],
    ['Pastis', 450],
    ['Coupe de champagne', 1100],
  ]),
  hot: family('Cafés et thés', '0.1', [
    ['Expresso', 230],
    ['Café crème', 380],
    ['Thé', 380],
    ['Chocolat chaud', 420],
    ['Cappuccino', 450],
  ]),
  menus: family('Formules', '0.1', [
    ['Formule midi entrée-plat', 1690],
    ['Formule midi plat-dessert', 1690],
  ]),
};

/** The bakery range (take away). */
export const BAKERY = {
  breads: family('Pains', '0.055', [
    ['Baguette tradition', 130],
    ['Baguette', 110],
    ['Pain de campagne', 350],
    ['Pain aux céréales', 380],
    ['Boule bio', 420],
  ]),
  viennoiseries: family('Viennoiseries', '0.055', [
    ['Croissant', 120],
    ['Pain au chocolat', 140],
    ['Pain aux raisins', 160],
    ['Chausson aux pommes', 190],
    ['Brioche', 250],
  ]),
  pastries: family('Pâtisseries', '0.055', [
    ['Éclair au chocolat', 330],
    ['Tarte aux fraises', 420],
    ['Paris-Brest', 450],
    ['Flan pâtissier', 290],
    ['Millefeuille', 390],
    ['Macaron', 180],
  ]),
  snacks: family('Snacking', '0.1', [
    ['Sandwich jambon-beurre', 450],
    ['Sandwich poulet crudités', 550],
    ['Quiche lorraine', 480],
    ['Salade composée', 790],
    ['Formule déjeuner', 890],
    ['Croque-monsieur', 490],
  ]),
  colds: family('Boissons fraîches', '0.055', [
    ['Eau minérale 50 cl', 150],
    ['Jus de pomme', 250],
    ['Limonade', 280],
  ]),
  hot: family('Boissons chaudes', '0.1', [
    ['Café', 150],
    ['Thé', 200],
    ['Chocolat chaud', 280],
  ]),
};

/** Which sites a demo user's profile covers. */
export type DemoScope =
  /** One site: index in {@link SITES}. */
  | { site: number }
  /** Every site, present and future, of one company (the profile's `societesPlus`): index in {@link COMPANIES}. */
  | { company: number }
  /** Every site of the chain, present and future. */
  | 'all';

/** A user of the demo chain besides the administrator, showing the rights model at work (issue #18). */
export interface DemoUserSpec {
  login: string;
  /** Title of the user's own profile (SPEC.md §3). */
  profile: string;
  droits: readonly Right[];
  scope: DemoScope;
  /** Who they are and what they can do, as the start banner prints it (English, like the banner). */
  description: string;
}

/**
 * The demo users (README.md "Demo users"): a site manager, an area manager over the three
 * brasseries of SAS Brasseries du Comptoir, a manager of the three Maison Ferrand bakeries (so
 * that every site has someone who counts, issue #19's counting history, and the administrator
 * countersigns their safe counts), and an accountant who reads every site's reports and FEC but
 * counts nothing. Their passwords are generated at the demo's creation and shown once.
 */
export const DEMO_USERS: readonly DemoUserSpec[] = [
  {
    login: 'gerant.bellecour',
    profile: 'Gérant de site',
    droits: ['COMPTAGE', 'COFFRE', 'RECUS', 'RAPPORTS', 'TICKETS', 'EVENEMENTS'],
    scope: { site: 0 },
    description:
      'site manager of Le Comptoir Lyon Bellecour only: counting, safe, receipts, reports, tickets, local events',
  },
  {
    login: 'responsable.brasseries',
    profile: 'Responsable de zone',
    droits: ['COMPTAGE', 'COFFRE', 'RECUS', 'RAPPORTS', 'TICKETS', 'EVENEMENTS', 'BI', 'RAPPORTS_ANOMALIES'],
    scope: { company: 0 },
    description:
      'area manager of the three Le Comptoir brasseries (Lyon, Annecy, Grenoble): as the site manager, plus BI and anomalies',
  },
  {
    login: 'gerante.ferrand',
    profile: 'Gérante des boulangeries',
    droits: ['COMPTAGE', 'COFFRE', 'RECUS', 'RAPPORTS', 'TICKETS', 'EVENEMENTS'],
    scope: { company: 1 },
    description:
      'manager of the three Maison Ferrand bakeries (Nantes, Angers, La Rochelle): counting, safe, receipts, reports, tickets, local events',
  },
  {
    login: 'comptable',
    profile: 'Comptable',
    droits: ['RAPPORTS', 'FEC_CONFIGURATION'],
    scope: 'all',
    description: 'accountant of every site: reports and FEC exports, no counting',
  },
];
