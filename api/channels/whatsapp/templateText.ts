/**
 * The text rules of WhatsApp message templates, shared by the api (api/channels/whatsapp/templates.ts)
 * and the browser (the composer's TemplateFields, the campaign wizard): no Node-only imports here.
 */

/** A variable of a template: `{{1}}` (positional) or `{{first_name}}` (named), with Meta's example when given. */
export interface TemplateVariable {
  name: string;
  example: string | null;
}

/** Meta's header formats; a media header (IMAGE, VIDEO, DOCUMENT) takes a file as its parameter when sent. */
export type TemplateHeaderFormat = 'TEXT' | 'IMAGE' | 'VIDEO' | 'GIF' | 'DOCUMENT' | 'LOCATION';

/** A template as GET /integrations/whatsapp/{id}/templates lists it. */
export interface WhatsappTemplate {
  id: string;
  name: string;
  language: string;
  category: string | null;
  parameterFormat: 'POSITIONAL' | 'NAMED';
  /** The header's format, null without a header. */
  headerFormat: TemplateHeaderFormat | null;
  /** Text header (null when none or a media header). */
  header: string | null;
  headerVariables: TemplateVariable[];
  body: string;
  bodyVariables: TemplateVariable[];
  footer: string | null;
  /** A button whose URL has a variable: neither the composer nor campaigns fill it. */
  dynamicButton: boolean;
  /**
   * False when the composer cannot send it (a media header, a dynamic button URL): not offered there.
   * Campaigns may still send a media-header template with the campaign's file (campaignTemplateProblem).
   */
  supported: boolean;
  unsupportedReason: string | null;
}

export type TemplateValues = { header?: Record<string, string>; body?: Record<string, string> };

/** `{{1}}` or `{{first_name}}`, spaces inside the braces allowed (Meta's variable syntax). */
export const TEMPLATE_VARIABLE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The distinct variable names of a text, in order of first use. */
export function variablesOf(text: string): string[] {
  const seen: string[] = [];
  for (const m of text.matchAll(TEMPLATE_VARIABLE)) if (!seen.includes(m[1])) seen.push(m[1]);
  return seen;
}

/** The text with each variable's value; a variable without a (non-blank) value stays as written. */
export function fillTemplateText(text: string, values: Record<string, string> | undefined): string {
  return text.replace(TEMPLATE_VARIABLE, (whole, name: string) => values?.[name]?.trim() || whole);
}

/** What the customer reads: header, body and footer, the values filled in. */
export function renderTemplate(template: Pick<WhatsappTemplate, 'header' | 'body' | 'footer'>, values: TemplateValues): string {
  return [template.header ? fillTemplateText(template.header, values.header) : null, fillTemplateText(template.body, values.body), template.footer].filter(Boolean).join('\n\n');
}

/** The key a template is chosen by in the screens: name and language. */
export const templateKey = (tpl: Pick<WhatsappTemplate, 'name' | 'language'>) => `${tpl.name}|${tpl.language}`;

/** Meta refuses a text parameter with new lines, tabs or more than 4 spaces in a row (error 132018). */
export const INVALID_PARAMETER = 'Sem quebras de linha, tabulações ou mais de 4 espaços seguidos.';
export function validParameter(text: string): boolean {
  return !/[\n\r\t]/.test(text) && !/ {5,}/.test(text);
}

/** The media kind a template's media header takes (Graph's header parameter type), null for other headers. */
export function mediaHeaderKind(template: Pick<WhatsappTemplate, 'headerFormat'>): 'image' | 'video' | 'document' | null {
  switch (template.headerFormat) {
    case 'IMAGE':
      return 'image';
    case 'VIDEO':
      return 'video';
    case 'DOCUMENT':
      return 'document';
    default:
      return null;
  }
}
