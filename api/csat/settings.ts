import type { AppDeps } from '../deps';
import { errors, type FieldError } from '../http/errors';
import type { Actor } from '../policy/policy';
import { loadChannel } from '../conversations/queries';
import type { ChannelRecord, ChannelType } from '../models/Channel';
import { isCloudConfig } from '../channels/whatsapp/schema';
import { lineTemplates, templateValueErrors, type WhatsappTemplate } from '../channels/whatsapp/templates';
import { CSAT_DEFAULTS, type CsatScale, type CsatSettingsInput } from './schema';

/** A template as the channel keeps it: what was chosen, its values, and its definition (no call to Meta at resolve). */
export interface StoredCsatTemplate {
  name: string;
  language: string;
  header: Record<string, string>;
  body: Record<string, string>;
  definition: WhatsappTemplate;
}

/** channels.csat, read with its defaults: a channel never set up is off. */
export interface CsatSettings {
  enabled: boolean;
  scale: CsatScale;
  question: string;
  thanks: string;
  template: StoredCsatTemplate | null;
}

export const CSAT_SETTINGS_TEXTS = {
  notFound: 'Canal não encontrado.',
  noTemplates: 'Modelos de mensagem só existem em linhas da API oficial do WhatsApp.',
  templateNotFound: 'Modelo não encontrado ou não aprovado nesta linha.',
} as const;

export function csatSettingsOf(raw: unknown): CsatSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Partial<CsatSettings>;
  return {
    enabled: r.enabled === true,
    scale: r.scale === 'emojis' ? 'emojis' : 'numbers',
    question: typeof r.question === 'string' && r.question.trim() ? r.question : CSAT_DEFAULTS.question,
    thanks: typeof r.thanks === 'string' ? r.thanks : CSAT_DEFAULTS.thanks,
    template: r.template && typeof r.template === 'object' && typeof r.template.name === 'string' ? r.template : null,
  };
}

/** A WhatsApp line on the official API: outside the 24-hour window only an approved template goes out. */
export const isCloudLine = (channel: Pick<ChannelRecord, 'type' | 'config'>): boolean => channel.type === 'whatsapp' && isCloudConfig(channel.config ?? {});

/** GET /csat/channels/{id}: the survey as the settings form edits it. */
export function presentCsatSettings(channel: Pick<ChannelRecord, 'id' | 'type' | 'config'>, s: CsatSettings) {
  return {
    channelId: channel.id,
    channelType: channel.type as ChannelType,
    cloud: isCloudLine(channel),
    enabled: s.enabled,
    scale: s.scale,
    question: s.question,
    thanks: s.thanks,
    template: s.template ? { name: s.template.name, language: s.template.language, header: s.template.header, body: s.template.body } : null,
  };
}

export type CsatDeps = Pick<AppDeps, 'knex' | 'config' | 'publisher'>;

async function channelOf(deps: CsatDeps, actor: Actor, id: number): Promise<ChannelRecord & { csat: unknown }> {
  const channel = await loadChannel(deps.knex, actor.workspaceId, id).catch(() => undefined);
  if (!channel) throw errors.notFound(CSAT_SETTINGS_TEXTS.notFound);
  const row = await deps.knex('channels').where({ workspaceId: actor.workspaceId, id }).first('csat');
  return { ...channel, csat: row?.csat ?? null };
}

export async function readCsatSettings(deps: CsatDeps, actor: Actor, id: number) {
  const channel = await channelOf(deps, actor, id);
  return presentCsatSettings(channel, csatSettingsOf(channel.csat));
}

/**
 * PUT /csat/channels/{id}: the survey of one channel of the caller's workspace (another workspace's channel
 * is a 404). A template is for WhatsApp Cloud lines only and must be one of the line's approved templates,
 * every variable filled (they may use {{nome}}, {{primeiro_nome}}, {{protocolo}}); all failing fields at once.
 */
export async function saveCsatSettings(deps: CsatDeps, actor: Actor, id: number, input: CsatSettingsInput) {
  const channel = await channelOf(deps, actor, id);
  const fields: FieldError[] = [];
  let template: StoredCsatTemplate | null = null;
  if (input.template) {
    if (!isCloudLine(channel)) fields.push({ key: 'template', descriptions: [CSAT_SETTINGS_TEXTS.noTemplates] });
    else {
      const found = (await lineTemplates(deps, channel)).find((t) => t.name === input.template!.name && t.language === input.template!.language);
      if (!found) fields.push({ key: 'template.name', descriptions: [CSAT_SETTINGS_TEXTS.templateNotFound] });
      else if (!found.supported) fields.push({ key: 'template.name', descriptions: [found.unsupportedReason ?? CSAT_SETTINGS_TEXTS.templateNotFound] });
      else {
        const values = { header: input.template.header ?? {}, body: input.template.body ?? {} };
        for (const e of templateValueErrors(found, values)) fields.push({ key: `template.${e.key}`, descriptions: e.descriptions });
        template = { name: found.name, language: found.language, header: values.header, body: values.body, definition: found };
      }
    }
  }
  if (fields.length) throw errors.validation(fields);
  const settings: CsatSettings = { enabled: input.enabled, scale: input.scale, question: input.question, thanks: input.thanks, template };
  await deps.knex('channels').where({ workspaceId: actor.workspaceId, id: channel.id }).update({ csat: JSON.stringify(settings), updatedAt: deps.knex.fn.now() });
  return presentCsatSettings(channel, settings);
}
