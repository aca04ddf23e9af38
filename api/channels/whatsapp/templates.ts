import type { Knex } from 'knex';
import type { Config } from '../../config';
import type { ChannelRecord } from '../adapter';
import { ChannelSendError } from '../sendErrors';
import { providerFetch } from '../providerHttp';
import { graphSendError } from './client';
import { cloudLineOf } from './cloudLine';

/**
 * Approved message templates of a Cloud line (docs/channels/whatsapp.md "Templates"): listed from
 * `GET {META_GRAPH_URL}/{WABA-ID}/message_templates` (Meta's Business Management API: `{data: [{id, name,
 * language, status, category, parameter_format, components}], paging: {cursors: {after}, next}}`), and
 * turned into what a send needs: `type: template` with `components[].parameters`.
 */

/** A variable of a template: `{{1}}` (positional) or `{{first_name}}` (named), with Meta's example when given. */
export interface TemplateVariable {
  name: string;
  example: string | null;
}

export interface WhatsappTemplate {
  id: string;
  name: string;
  language: string;
  category: string | null;
  parameterFormat: 'POSITIONAL' | 'NAMED';
  /** Text header (null when none or a media header). */
  header: string | null;
  headerVariables: TemplateVariable[];
  body: string;
  bodyVariables: TemplateVariable[];
  footer: string | null;
  /** False when sending needs more than text variables (a media header, a dynamic button URL): not offered. */
  supported: boolean;
  unsupportedReason: string | null;
}

interface GraphComponent {
  type?: string;
  format?: string;
  text?: string;
  example?: {
    header_text?: string[];
    body_text?: string[][];
    header_text_named_params?: { param_name: string; example: string }[];
    body_text_named_params?: { param_name: string; example: string }[];
  };
  buttons?: { type?: string; url?: string; text?: string }[];
}

interface GraphTemplate {
  id?: string;
  name?: string;
  language?: string;
  status?: string;
  category?: string;
  parameter_format?: string;
  components?: GraphComponent[];
}

const VARIABLE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
/** Meta allows 250 template names per account, each in several languages: 20 pages of 100 are plenty. */
const MAX_PAGES = 20;

export function variablesOf(text: string): string[] {
  const seen: string[] = [];
  for (const m of text.matchAll(VARIABLE)) if (!seen.includes(m[1])) seen.push(m[1]);
  return seen;
}

function withExamples(names: string[], positional: string[] | undefined, named: { param_name: string; example: string }[] | undefined): TemplateVariable[] {
  return names.map((name, i) => ({
    name,
    example: named?.find((p) => p.param_name === name)?.example ?? (/^\d+$/.test(name) ? positional?.[Number(name) - 1] : positional?.[i]) ?? null,
  }));
}

/** One Graph template as the composer and campaigns see it; undefined for an entry without name or body. */
export function toTemplate(t: GraphTemplate): WhatsappTemplate | undefined {
  const components = t.components ?? [];
  const find = (type: string) => components.find((c) => c.type?.toUpperCase() === type);
  const body = find('BODY');
  if (!t.name || !t.language || typeof body?.text !== 'string') return undefined;
  const header = find('HEADER');
  const headerText = header && (header.format ?? 'TEXT').toUpperCase() === 'TEXT' && typeof header.text === 'string' ? header.text : null;
  let unsupportedReason: string | null = null;
  if (header && !headerText) unsupportedReason = 'O cabeçalho do modelo tem mídia; envie-o pelo WhatsApp Manager.';
  const buttons = find('BUTTONS')?.buttons ?? [];
  if (buttons.some((b) => typeof b.url === 'string' && variablesOf(b.url).length > 0)) unsupportedReason = 'O modelo tem um botão com link variável; envie-o pelo WhatsApp Manager.';
  return {
    id: t.id ?? `${t.name}:${t.language}`,
    name: t.name,
    language: t.language,
    category: t.category ?? null,
    parameterFormat: t.parameter_format?.toUpperCase() === 'NAMED' ? 'NAMED' : 'POSITIONAL',
    header: headerText,
    headerVariables: headerText ? withExamples(variablesOf(headerText), header?.example?.header_text, header?.example?.header_text_named_params) : [],
    body: body.text,
    bodyVariables: withExamples(variablesOf(body.text), body.example?.body_text?.[0], body.example?.body_text_named_params),
    footer: typeof find('FOOTER')?.text === 'string' ? find('FOOTER')!.text! : null,
    supported: unsupportedReason === null,
    unsupportedReason,
  };
}

/**
 * Every APPROVED template of a Cloud line's WhatsApp Business account, paged with the `after` cursor at
 * our own META_GRAPH_URL (the `next` URL Meta gives is not followed, so the line's token only goes there).
 * A QR line has no templates: []. Graph errors throw ChannelSendError (disconnect set for auth errors).
 * Used by the composer outside the 24-hour window and by campaigns.
 */
export async function listApprovedTemplates(channel: Pick<ChannelRecord, 'config'>, deps: { config: Pick<Config, 'metaGraphUrl' | 'channelSecretsKey'> }): Promise<WhatsappTemplate[]> {
  const line = cloudLineOf(deps.config, channel);
  if (!line) return [];
  const out: WhatsappTemplate[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const url = new URL(`${deps.config.metaGraphUrl}/${encodeURIComponent(line.businessAccountId)}/message_templates`);
    url.searchParams.set('fields', 'id,name,language,status,category,parameter_format,components');
    url.searchParams.set('status', 'APPROVED');
    url.searchParams.set('limit', '100');
    if (after) url.searchParams.set('after', after);
    const res = await providerFetch('WhatsApp', url.toString(), { headers: { authorization: `Bearer ${line.accessToken}` } });
    const json = (await res.json().catch(() => undefined)) as { data?: GraphTemplate[]; paging?: { cursors?: { after?: string }; next?: string }; error?: Parameters<typeof graphSendError>[1] } | undefined;
    if (!res.ok || !json || json.error || !Array.isArray(json.data)) throw graphSendError(res.status, json?.error);
    for (const t of json.data) {
      if (t.status && t.status.toUpperCase() !== 'APPROVED') continue;
      const template = toTemplate(t);
      if (template) out.push(template);
    }
    after = json.paging?.next ? json.paging.cursors?.after : undefined;
    if (!after) break;
  }
  return out.sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
}

/** Meta refuses a text parameter with new lines, tabs or more than 4 spaces in a row (error 132018). */
export const INVALID_PARAMETER = 'Sem quebras de linha, tabulações ou mais de 4 espaços seguidos.';
export function validParameter(text: string): boolean {
  return !/[\n\r\t]/.test(text) && !/ {5,}/.test(text);
}

export interface TemplateValues {
  header?: Record<string, string>;
  body?: Record<string, string>;
}

/** Each empty or invalid variable, as `header.{name}` / `body.{name}` field errors. */
export function templateValueErrors(template: WhatsappTemplate, values: TemplateValues): { key: string; descriptions: string[] }[] {
  const errs: { key: string; descriptions: string[] }[] = [];
  const check = (part: 'header' | 'body', vars: TemplateVariable[]) => {
    for (const v of vars) {
      const value = values[part]?.[v.name]?.trim() ?? '';
      if (!value) errs.push({ key: `${part}.${v.name}`, descriptions: [`Preencha a variável {{${v.name}}}.`] });
      else if (!validParameter(value)) errs.push({ key: `${part}.${v.name}`, descriptions: [INVALID_PARAMETER] });
    }
  };
  check('header', template.headerVariables);
  check('body', template.bodyVariables);
  return errs;
}

const fill = (text: string, values: Record<string, string> | undefined) => text.replace(VARIABLE, (whole, name: string) => values?.[name]?.trim() ?? whole);

/** The text the agent and the inbox see for a template message: header, body and footer filled in. */
export function renderTemplate(template: WhatsappTemplate, values: TemplateValues): string {
  return [template.header ? fill(template.header, values.header) : null, fill(template.body, values.body), template.footer].filter(Boolean).join('\n\n');
}

/** The `template` object of a `type: template` send (Meta's Cloud API messages endpoint). */
export function templatePayload(template: WhatsappTemplate, values: TemplateValues): Record<string, unknown> {
  const named = template.parameterFormat === 'NAMED';
  const params = (vars: TemplateVariable[], part: Record<string, string> | undefined) =>
    vars.map((v) => ({ type: 'text', ...(named ? { parameter_name: v.name } : {}), text: part?.[v.name]?.trim() ?? '' }));
  const components: Record<string, unknown>[] = [];
  if (template.headerVariables.length) components.push({ type: 'header', parameters: params(template.headerVariables, values.header) });
  if (template.bodyVariables.length) components.push({ type: 'body', parameters: params(template.bodyVariables, values.body) });
  return { name: template.name, language: { code: template.language }, ...(components.length ? { components } : {}) };
}

/** Whether listing failed for the line's credentials (the channel then shows disconnected). */
export function isDisconnecting(err: unknown): boolean {
  return err instanceof ChannelSendError && err.disconnect;
}

/** The template a stored agent message was sent as (`extra_data.whatsapp.template`), for the delivery path. */
export async function storedTemplateOf(deps: { knex: Knex }, messageId: number): Promise<Record<string, unknown> | undefined> {
  const row = (await deps.knex('messages').where({ id: messageId }).first('extra_data')) as { extraData?: { whatsapp?: { template?: Record<string, unknown> } } } | undefined;
  const template = row?.extraData?.whatsapp?.template;
  return template && typeof template === 'object' && typeof template.name === 'string' ? template : undefined;
}
