/**
 * What each partner gets by default (decision 0044: the assumptions about their formats). An
 * administrator changes any of it on the partner's screen; these are the starting point.
 */
import type { Destination, Layout, Partner } from '../../contract/integrations.ts';

/** The default layout of `partner`. */
export function defaultLayout(partner: Partner): Layout {
  switch (partner) {
    case 'adoria':
      return {
        colonnes: [
          { champ: 'siteCode', nom: 'CODE_SITE' },
          { champ: 'date', nom: 'DATE' },
          { champ: 'articleCode', nom: 'CODE_ARTICLE' },
          { champ: 'article', nom: 'LIBELLE_ARTICLE' },
          { champ: 'quantity', nom: 'QUANTITE' },
          { champ: 'netExcl', nom: 'CA_HT' },
          { champ: 'net', nom: 'CA_TTC' },
        ],
        separateur: ';',
        virguleDecimale: true,
        encodage: 'windows-1252',
        entete: true,
        formatDate: 'DD/MM/YYYY',
        nomFichier: 'VENTES_{site}_{date}.csv',
      };
    case 'easilys':
      return {
        colonnes: [
          { champ: 'siteCode', nom: 'restaurant' },
          { champ: 'date', nom: 'date' },
          { champ: 'articleCode', nom: 'code_produit' },
          { champ: 'article', nom: 'produit' },
          { champ: 'quantity', nom: 'quantite' },
          { champ: 'netExcl', nom: 'montant_ht' },
          { champ: 'net', nom: 'montant_ttc' },
          { champ: 'vatRate', nom: 'taux_tva' },
        ],
        separateur: ';',
        virguleDecimale: true,
        encodage: 'utf-8',
        entete: true,
        formatDate: 'YYYY-MM-DD',
        nomFichier: 'easilys_ventes_{site}_{date}.csv',
      };
    case 'ecash':
      return {
        colonnes: [
          { champ: 'siteCode', nom: 'SITE' },
          { champ: 'date', nom: 'DATE' },
          { champ: 'method', nom: 'MODE_REGLEMENT' },
          { champ: 'payments', nom: 'NB_REGLEMENTS' },
          { champ: 'amount', nom: 'MONTANT' },
        ],
        separateur: ';',
        virguleDecimale: true,
        encodage: 'utf-8',
        entete: true,
        formatDate: 'DD/MM/YYYY',
        nomFichier: 'ECASH_{site}_{date}.csv',
      };
    case 'consolidations':
      return {
        colonnes: [
          { champ: 'siteCode', nom: 'site_code' },
          { champ: 'site', nom: 'site' },
          { champ: 'date', nom: 'date' },
          { champ: 'method', nom: 'payment_method' },
          { champ: 'payments', nom: 'count' },
          { champ: 'amount', nom: 'amount' },
        ],
        separateur: ',',
        virguleDecimale: false,
        encodage: 'utf-8',
        entete: true,
        formatDate: 'YYYY-MM-DD',
        nomFichier: 'consolidation_{site}_{date}.csv',
      };
  }
}

/** The default destination of `partner`: its own folder under DATA_DIR/exports/. */
export function defaultDestination(partner: Partner): Destination {
  return { type: 'folder', dossier: partner };
}
