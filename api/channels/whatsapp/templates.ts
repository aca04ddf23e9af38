import type { Knex } from 'knex';
import type { Config } from '../../config';
import { errors } from '../../http/errors';
import type { ChannelDeps, ChannelRecord } from '../adapter';
import { setChannelStatus } from '../channelStatus';
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

import { INVALID_PARAMETER, validParameter, variablesOf, type TemplateHeaderFormat, type TemplateValues, type TemplateVariable, type WhatsappTemplate } from './templateText';

// The text rules live in ./templateText (shared with the browser); re-exported for the api's callers.
export type { TemplateHeaderFormat, TemplateValues, TemplateVariable, WhatsappTemplate } from './templateText';
export { INVALID_PARAMETER, renderTemplate, validParameter, variablesOf } from './templateText';

const HEADER_FORMATS: readonly TemplateHeaderFormat[] = ['TEXT', 'IMAGE', 'VIDEO', 'GIF', 'DOCUMENT', 'LOCATION'];

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

/** Meta allows 250 template names per account, each in several languages: 20 pages of 100 are plenty. */
const MAX_PAGES = 20;

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
  const headerFormat = header ? (HEADER_FORMATS.find((f) => f === (header.format ?? 'TEXT').toUpperCase()) ?? null) : null;
  const headerText = headerFormat === 'TEXT' && typeof header?.text === 'string' ? header.text : null;
  let unsupportedReason: string | null = null;
  if (header && !headerText) unsupportedReason = 'O cabeçalho do modelo tem mídia; envie-o pelo WhatsApp Manager.';
  const buttons = find('BUTTONS')?.buttons ?? [];
  const dynamicButton = buttons.some((b) => typeof b.url === 'string' && variablesOf(b.url).length > 0);
  if (dynamicButton) unsupportedReason = 'O modelo tem um botão com link variável; envie-o pelo WhatsApp Manager.';
  return {
    id: t.id ?? `${t.name}:${t.language}`,
    name: t.name,
    language: t.language,
    category: t.category ?? null,
    parameterFormat: t.parameter_format?.toUpperCase() === 'NAMED' ? 'NAMED' : 'POSITIONAL',
    headerFormat,
    header: headerText,
    headerVariables: headerText ? withExamples(variablesOf(headerText), header?.example?.header_text, header?.example?.header_text_named_params) : [],
    body: body.text,
    bodyVariables: withExamples(variablesOf(body.text), body.example?.body_text?.[0], body.example?.body_text_named_params),
    footer: typeof find('FOOTER')?.text === 'string' ? find('FOOTER')!.text! : null,
    dynamicButton,
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

/**
 * A line's approved templates as an api answer lists them (settings, a conversation's composer, the
 * new-message dialog): a refused token marks the line disconnected (banner) and a provider failure answers
 * 503 with its pt-BR reason.
 */
export async function lineTemplates(deps: Pick<ChannelDeps, 'knex' | 'publisher' | 'config'>, channel: ChannelRecord): Promise<WhatsappTemplate[]> {
  try {
    return await listApprovedTemplates(channel, deps);
  } catch (err) {
    if (!(err instanceof ChannelSendError)) throw err;
    if (err.disconnect) await setChannelStatus(deps, channel, 'disconnected');
    throw errors.unavailable(`Não foi possível listar os modelos de mensagem: ${err.message}`);
  }
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
