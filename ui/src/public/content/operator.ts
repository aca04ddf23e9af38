/**
 * Who operates Balcão, as the legal texts name it. The bracketed values are placeholders the operator must
 * fill before publishing the site (docs/public-site-content.md "Company identity"); every legal page reads
 * them from here, so they are filled in one place.
 */
export const OPERATOR = {
  /** Trade name used throughout the texts. */
  brand: 'Balcão',
  /** Razão social and CNPJ, as in the company's registration. */
  legalLine: '[razão social e CNPJ do operador]',
  /** Registered address (street, number, city/UF, CEP). */
  address: '[endereço da sede do operador]',
  /** City/UF whose courts the Terms elect (foro). */
  forum: '[cidade/UF do foro]',
  /** Where customers write about the Terms, billing and support. */
  contactEmail: '[e-mail de contato do operador]',
  /** The encarregado pelo tratamento de dados pessoais (LGPD art. 41). */
  dpoName: '[nome do encarregado de dados]',
  dpoEmail: '[e-mail do encarregado de dados]',
  /** Where the servers and the database run (a sub-processor named in the Privacy Policy). */
  hostingProvider: '[nome do provedor de hospedagem]',
} as const;

/** Date of the current version of the Terms and of the Privacy Policy. */
export const LEGAL_UPDATED_AT = '28 de novembro de 2026';
