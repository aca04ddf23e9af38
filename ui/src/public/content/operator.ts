/**
 * Who operates Balcão, as the legal texts name it: tokens the api fills from its OPERATOR_* configuration when
 * it serves a page (api/config.ts, api/http/serveUi.ts; docs/public-site-content.md "Company identity"). An
 * unset variable shows its bracketed placeholder, so a page never names a company that did not say so.
 */
export const OPERATOR = {
  /** Trade name used throughout the texts. */
  brand: 'Balcão',
  /** Razão social and CNPJ, as in the company's registration (OPERATOR_LEGAL_NAME). */
  legalLine: '%BALCAO_OPERATOR_LEGAL_NAME%',
  /** Registered address: street, number, city/UF, CEP (OPERATOR_ADDRESS). */
  address: '%BALCAO_OPERATOR_ADDRESS%',
  /** City/UF whose courts the Terms elect, the foro (OPERATOR_FORUM). */
  forum: '%BALCAO_OPERATOR_FORUM%',
  /** Where customers write about the Terms, billing and support (OPERATOR_CONTACT_EMAIL). */
  contactEmail: '%BALCAO_OPERATOR_CONTACT_EMAIL%',
  /** The contact as a link target: a mailto: once the e-mail is set, /pricing (its contact dialog) until then. */
  contactHref: '%BALCAO_OPERATOR_CONTACT_HREF%',
  /** The encarregado pelo tratamento de dados pessoais, LGPD art. 41 (OPERATOR_DPO_NAME, OPERATOR_DPO_EMAIL). */
  dpoName: '%BALCAO_OPERATOR_DPO_NAME%',
  dpoEmail: '%BALCAO_OPERATOR_DPO_EMAIL%',
  /** Where the servers and the database run, a sub-processor named in the Privacy Policy (OPERATOR_HOSTING). */
  hostingProvider: '%BALCAO_OPERATOR_HOSTING%',
} as const;

/** Date of the current version of the Terms and of the Privacy Policy. */
export const LEGAL_UPDATED_AT = '28 de novembro de 2026';
