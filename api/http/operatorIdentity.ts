/**
 * Who operates this Balcão installation, as the public legal pages (/terms, /privacy, /ganhomais) name it:
 * OPERATOR_* configuration (api/config.ts), filled into the prerendered pages as `%BALCAO_OPERATOR_…%` tokens
 * when they are served (api/http/serveUi.ts) and by the vite dev server (ui/site/vitePlugin.ts). No imports:
 * the UI build reads it too.
 */

/** The company that runs this installation, named by the legal pages. */
export interface OperatorIdentity {
  /** OPERATOR_LEGAL_NAME: razão social and CNPJ. */
  legalLine: string;
  /** OPERATOR_ADDRESS: the registered address. */
  address: string;
  /** OPERATOR_FORUM: the city/UF whose courts the Terms elect. */
  forum: string;
  /** OPERATOR_CONTACT_EMAIL: where customers write about the Terms, billing and support. */
  contactEmail: string;
  /** OPERATOR_DPO_NAME, OPERATOR_DPO_EMAIL: the encarregado (LGPD art. 41). */
  dpoName: string;
  dpoEmail: string;
  /** OPERATOR_HOSTING: the hosting provider named as a sub-processor. */
  hostingProvider: string;
}

/** What the legal pages show for each unset OPERATOR_* variable. */
export const OPERATOR_PLACEHOLDERS: OperatorIdentity = {
  legalLine: '[razão social e CNPJ do operador]',
  address: '[endereço da sede do operador]',
  forum: '[cidade/UF do foro]',
  contactEmail: '[e-mail de contato do operador]',
  dpoName: '[nome do encarregado de dados]',
  dpoEmail: '[e-mail do encarregado de dados]',
  hostingProvider: '[nome do provedor de hospedagem]',
};

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain e-mail address (what a mailto: link may carry without encoding surprises). */
const EMAIL = /^[^\s@<>"'()[\],;:]+@[^\s@<>"'()[\],;:]+\.[^\s@<>"'()[\],;:]+$/;

/** The operator's identity for the legal pages (OPERATOR_*), escaped, and the partner contact's link target. */
export function operatorTokens(o: OperatorIdentity): Record<string, string> {
  const contactHref = EMAIL.test(o.contactEmail) ? `mailto:${o.contactEmail}?subject=${encodeURIComponent('Quero ser parceiro do Balcão')}` : '/pricing';
  return {
    OPERATOR_LEGAL_NAME: escapeHtml(o.legalLine),
    OPERATOR_ADDRESS: escapeHtml(o.address),
    OPERATOR_FORUM: escapeHtml(o.forum),
    OPERATOR_CONTACT_EMAIL: escapeHtml(o.contactEmail),
    OPERATOR_CONTACT_HREF: escapeHtml(contactHref),
    OPERATOR_DPO_NAME: escapeHtml(o.dpoName),
    OPERATOR_DPO_EMAIL: escapeHtml(o.dpoEmail),
    OPERATOR_HOSTING: escapeHtml(o.hostingProvider),
  };
}

/** The OPERATOR_* variables still at their placeholder (the api warns at start while any is). */
export function unsetOperatorVariables(o: OperatorIdentity): string[] {
  const names: Record<keyof OperatorIdentity, string> = {
    legalLine: 'OPERATOR_LEGAL_NAME',
    address: 'OPERATOR_ADDRESS',
    forum: 'OPERATOR_FORUM',
    contactEmail: 'OPERATOR_CONTACT_EMAIL',
    dpoName: 'OPERATOR_DPO_NAME',
    dpoEmail: 'OPERATOR_DPO_EMAIL',
    hostingProvider: 'OPERATOR_HOSTING',
  };
  return (Object.keys(names) as (keyof OperatorIdentity)[]).filter((k) => o[k] === OPERATOR_PLACEHOLDERS[k]).map((k) => names[k]);
}
