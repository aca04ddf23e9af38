import type { Knex } from 'knex';
import { errors, type FieldError } from '../../http/errors';
import type { Channel } from '../../models/Channel';
import { presentChannel } from '../presentChannel';
import { WIDGET_DEFAULTS, WIDGET_LOGO_PATTERN, type WidgetSettings } from './schema';

/**
 * The widget's settings as stored in channels.config.widget (no migration: the widget's config holds no
 * secret, and a widget saved before these settings existed reads as WIDGET_DEFAULTS).
 */
export function widgetSettingsOf(config: Record<string, unknown> | null | undefined): WidgetSettings {
  const stored = (config?.widget ?? {}) as Partial<WidgetSettings>;
  return { ...WIDGET_DEFAULTS, ...stored, preChat: { ...WIDGET_DEFAULTS.preChat, ...stored.preChat } };
}

/** GET/POST/PUT /integrations/widget: the channel as every channel is presented, with the widget's settings. */
export function presentWidgetChannel(row: Channel) {
  return { ...presentChannel(row), ...widgetSettingsOf(row.config) };
}

/**
 * A logo must be an avatar this workspace uploaded (POST /integrations/widget/logo), and the schedule one of
 * its business hours: another workspace's id or key is refused like an unknown one (400 on its field).
 */
export async function checkSettingsRefs(db: Knex, workspaceId: number, settings: Partial<WidgetSettings>): Promise<void> {
  const fields: FieldError[] = [];
  if (settings.logo) {
    const key = WIDGET_LOGO_PATTERN.exec(settings.logo)?.[1];
    const row = key ? await db('stored_files').where({ workspaceId, key }).first('id') : undefined;
    if (!row) fields.push({ key: 'logo', descriptions: ['Logotipo não encontrado. Envie a imagem de novo.'] });
  }
  if (settings.businessHoursId) {
    const row = await db('business_hours').where({ workspaceId, id: settings.businessHoursId }).first('id');
    if (!row) fields.push({ key: 'businessHoursId', descriptions: ['Horário comercial não encontrado.'] });
  }
  if (fields.length) throw errors.validation(fields);
}
