import { z } from 'zod';
import { mediaHeaderKind, type WhatsappTemplate } from '../channels/whatsapp/templateText';

/**
 * Campaign requests (SPEC §5, §7, §9; docs/campaigns.md), shared by the api and the /campaigns wizard.
 * Times are seconds. The wizard's non-liability acceptance is a UI gate and is not sent.
 */
export const CAMPAIGN_DEFAULTS = { chunks: 100, timeBetweenChunks: 1800, initialTimeBetweenMessages: 1, finalTimeBetweenMessages: 5 } as const;

/** Extensions SPEC §5 accepts for the numbers file. */
export const CAMPAIGN_FILE_EXTENSIONS = ['.csv', '.xls', '.xlsx', '.txt', '.xml'] as const;

export const CAMPAIGN_MESSAGE_MAX_CHARS = 4096;
/** A week of seconds: longer waits are a typo, not a pacing. */
const MAX_WAIT = 7 * 24 * 3600;

const seconds = (label: string, fallback: number) =>
  z
    .number({ error: `${label}: informe um número de segundos.` })
    .int(`${label}: use um número inteiro de segundos.`)
    .min(0, `${label}: o mínimo é 0.`)
    .max(MAX_WAIT, `${label}: o máximo é ${MAX_WAIT} segundos (7 dias).`)
    .default(fallback);

export const CampaignNameSchema = z
  .string({ error: 'O nome da campanha é obrigatório.' })
  .trim()
  .min(1, 'O nome da campanha é obrigatório.')
  .max(120, 'O nome da campanha deve ter no máximo 120 caracteres.');

/** Rich text as Delta ops with string inserts (attributes dropped); {{1}}, {{2}}… take the file's columns 2, 3… */
export const CampaignMessageSchema = z.array(z.unknown(), { error: 'Escreva a mensagem da campanha.' }).transform((items, ctx) => {
  const ops: { insert: string }[] = [];
  for (const item of items) {
    const rec = item && typeof item === 'object' && !Array.isArray(item) ? (item as Record<string, unknown>) : undefined;
    if (!rec || typeof rec.insert !== 'string') {
      ctx.addIssue({ code: 'custom', message: 'Mensagem inválida: use operações de texto.' });
      return z.NEVER;
    }
    ops.push({ insert: rec.insert });
  }
  const chars = ops.reduce((n, op) => n + op.insert.length, 0);
  if (!ops.some((op) => op.insert.trim())) {
    ctx.addIssue({ code: 'custom', message: 'Escreva a mensagem da campanha.' });
    return z.NEVER;
  }
  if (chars > CAMPAIGN_MESSAGE_MAX_CHARS) {
    ctx.addIssue({ code: 'custom', message: `A mensagem deve ter no máximo ${CAMPAIGN_MESSAGE_MAX_CHARS} caracteres.` });
    return z.NEVER;
  }
  return ops;
});

/** The kinds a campaign's attachment is sent as (the inbox's media kinds, stickers aside). */
export type CampaignMediaKind = 'image' | 'video' | 'audio' | 'document';

const MB = 1024 * 1024;
/**
 * Types WhatsApp takes as media, by the type read from the upload's bytes (Meta's "Supported media types",
 * the same for QR lines): images JPEG/PNG up to 5 MB; MP4/3GP video, AAC/AMR/MP3/M4A/Ogg-Opus audio and
 * PDF/Word/Excel/PowerPoint/text documents up to 16 MB (the upload limit).
 */
export const CAMPAIGN_MEDIA_TYPES: Readonly<Record<string, { kind: CampaignMediaKind; maxBytes: number }>> = {
  'image/jpeg': { kind: 'image', maxBytes: 5 * MB },
  'image/png': { kind: 'image', maxBytes: 5 * MB },
  'video/mp4': { kind: 'video', maxBytes: 16 * MB },
  'video/3gpp': { kind: 'video', maxBytes: 16 * MB },
  'audio/aac': { kind: 'audio', maxBytes: 16 * MB },
  'audio/amr': { kind: 'audio', maxBytes: 16 * MB },
  'audio/mpeg': { kind: 'audio', maxBytes: 16 * MB },
  'audio/mp4': { kind: 'audio', maxBytes: 16 * MB },
  'audio/x-m4a': { kind: 'audio', maxBytes: 16 * MB },
  'audio/ogg': { kind: 'audio', maxBytes: 16 * MB },
  'application/pdf': { kind: 'document', maxBytes: 16 * MB },
  'text/plain': { kind: 'document', maxBytes: 16 * MB },
  'application/msword': { kind: 'document', maxBytes: 16 * MB },
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': { kind: 'document', maxBytes: 16 * MB },
  'application/vnd.ms-excel': { kind: 'document', maxBytes: 16 * MB },
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { kind: 'document', maxBytes: 16 * MB },
  'application/vnd.ms-powerpoint': { kind: 'document', maxBytes: 16 * MB },
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': { kind: 'document', maxBytes: 16 * MB },
};

/** The file picker's `accept`: the extensions of CAMPAIGN_MEDIA_TYPES. */
export const CAMPAIGN_MEDIA_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.mp4', '.3gp', '.aac', '.amr', '.mp3', '.m4a', '.ogg', '.opus', '.pdf', '.txt', '.doc', '.docx', '.xls', '.xlsx', '.ppt', '.pptx'] as const;

export const CAMPAIGN_MEDIA_TYPE_REFUSED =
  'Tipo de anexo não aceito pelo WhatsApp: use imagem JPEG ou PNG, vídeo MP4 ou 3GP, áudio (MP3, AAC, AMR, M4A ou OGG) ou documento (PDF, Word, Excel, PowerPoint ou texto).';

/** The kind of a stored file (`audio/ogg; codecs=opus` reads as `audio/ogg`), or undefined when WhatsApp takes none. */
export function campaignMediaKind(mime: string): CampaignMediaKind | undefined {
  return CAMPAIGN_MEDIA_TYPES[mime.split(';')[0]!.trim().toLowerCase()]?.kind;
}

const KIND_LABEL: Record<CampaignMediaKind, string> = { image: 'imagem', video: 'vídeo', audio: 'áudio', document: 'documento' };

/**
 * Why a file cannot go with a campaign's message (pt-BR), or null: its type and size for WhatsApp and, on a
 * Cloud line, the template's media header — the file is sent as the header's image, video or document, so a
 * template without a media header takes no file, and a media header takes only its own kind.
 */
export function campaignMediaProblem(file: { mime: string; size: number }, template?: Pick<WhatsappTemplate, 'headerFormat'> | null): string | null {
  const rule = CAMPAIGN_MEDIA_TYPES[file.mime.split(';')[0]!.trim().toLowerCase()];
  if (!rule) return CAMPAIGN_MEDIA_TYPE_REFUSED;
  if (file.size > rule.maxBytes) return `O anexo (${KIND_LABEL[rule.kind]}) deve ter no máximo ${rule.maxBytes / MB} MB para o WhatsApp.`;
  if (template === undefined) return null;
  const header = template ? mediaHeaderKind(template) : null;
  if (!header) return 'O modelo escolhido não tem cabeçalho de imagem, vídeo ou documento, então não leva anexo: escolha um modelo com cabeçalho de mídia ou remova o anexo.';
  if (header !== rule.kind) return `O cabeçalho do modelo escolhido é de ${KIND_LABEL[header]}: anexe ${header === 'image' ? 'uma imagem (JPEG ou PNG)' : header === 'video' ? 'um vídeo (MP4 ou 3GP)' : 'um documento (PDF, Word, Excel, PowerPoint ou texto)'}.`;
  return null;
}

/**
 * Why a Cloud line's template cannot carry a campaign (pt-BR), or null: campaigns fill only the body's
 * positional {{1}}, {{2}}… (from the file's columns 2, 3…) and, with the campaign's file, an image, video
 * or document header. A media header needs the file (`hasFile`).
 */
export function campaignTemplateProblem(
  tpl: Pick<WhatsappTemplate, 'headerFormat' | 'headerVariables' | 'bodyVariables' | 'dynamicButton' | 'unsupportedReason'>,
  hasFile: boolean,
): string | null {
  if (tpl.dynamicButton) return tpl.unsupportedReason ?? 'O modelo tem um botão com link variável.';
  if (tpl.headerVariables.length) return 'O cabeçalho do modelo tem variáveis: campanhas preenchem só as do corpo.';
  if (!tpl.bodyVariables.every((v) => /^\d+$/.test(v.name))) return 'Campanhas preenchem só variáveis numeradas ({{1}}, {{2}}…) do corpo do modelo.';
  if (tpl.headerFormat && tpl.headerFormat !== 'TEXT' && !mediaHeaderKind(tpl)) return 'Cabeçalho de localização ou GIF não é enviado em campanhas.';
  if (mediaHeaderKind(tpl) && !hasFile) return 'O modelo tem cabeçalho de mídia: anexe o arquivo da campanha.';
  return null;
}

/** An approved template of a Cloud API line (Meta's name and language code, e.g. pt_BR). */
export const CampaignTemplateSchema = z.strictObject({
  name: z
    .string({ error: 'Escolha o modelo de mensagem aprovado.' })
    .trim()
    .regex(/^[a-z0-9_]{1,512}$/, 'Nome de modelo inválido: use letras minúsculas, números e _.'),
  language: z
    .string({ error: 'Informe o idioma do modelo.' })
    .trim()
    .regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'Idioma do modelo inválido (ex.: pt_BR).'),
});

/**
 * POST /api/campaign (SPEC §7). `file` is what POST /api/assets/upload answered (its key or fileName);
 * `mediaFile` likewise, the message's optional attachment (docs/campaigns.md "Attachment").
 */
export const CampaignCreateSchema = z
  .strictObject({
    name: CampaignNameSchema,
    workspacePlatformId: z.number({ error: 'Escolha a linha de WhatsApp da campanha.' }).int('Escolha a linha de WhatsApp da campanha.').positive('Escolha a linha de WhatsApp da campanha.'),
    message: CampaignMessageSchema,
    template: CampaignTemplateSchema.nullable().optional(),
    /** Optional attachment: what POST /api/assets/upload answered (its key or fileName). */
    mediaFile: z
      .string({ error: 'Anexo inválido.' })
      .trim()
      .min(1, 'Anexo inválido.')
      .max(255, 'Anexo inválido.')
      .nullable()
      .optional(),
    file: z
      .string({ error: 'Envie o arquivo com os números (.csv, .xls, .xlsx, .txt ou .xml).' })
      .trim()
      .min(1, 'Envie o arquivo com os números (.csv, .xls, .xlsx, .txt ou .xml).')
      .max(255, 'Arquivo inválido.'),
    executionDate: z.iso
      .datetime({ offset: true, error: 'Data de início inválida.' })
      .nullable()
      .optional(),
    chunks: z
      .number({ error: 'Tamanho do lote: informe um número.' })
      .int('Tamanho do lote: use um número inteiro.')
      .min(1, 'O tamanho do lote deve ser no mínimo 1.')
      .max(100_000, 'O tamanho do lote deve ser no máximo 100000.')
      .default(CAMPAIGN_DEFAULTS.chunks),
    timeBetweenChunks: seconds('Tempo entre lotes', CAMPAIGN_DEFAULTS.timeBetweenChunks),
    initialTimeBetweenMessages: seconds('Tempo mínimo entre mensagens', CAMPAIGN_DEFAULTS.initialTimeBetweenMessages),
    finalTimeBetweenMessages: seconds('Tempo máximo entre mensagens', CAMPAIGN_DEFAULTS.finalTimeBetweenMessages),
  })
  // SPEC §5: the maximum wait is raised to the minimum when smaller.
  .transform((c) => ({ ...c, finalTimeBetweenMessages: Math.max(c.finalTimeBetweenMessages, c.initialTimeBetweenMessages) }));
export type CampaignCreateReq = z.infer<typeof CampaignCreateSchema>;

/** Statuses a user may save (SPEC §4): pause, resume (through waiting_processing), cancel. */
export const CAMPAIGN_USER_STATUSES = ['paused', 'waiting_processing', 'canceled'] as const;

/** Save with `{id, name}` (the only editable field) or `{id, status}`. */
export const CampaignUpdateSchema = z
  .strictObject({
    name: CampaignNameSchema.optional(),
    status: z.enum(CAMPAIGN_USER_STATUSES, { error: 'Status inválido: use paused, waiting_processing ou canceled.' }).optional(),
  })
  .refine((u) => u.name !== undefined || u.status !== undefined, { message: 'Informe o nome ou o status.' });
export type CampaignUpdateReq = z.infer<typeof CampaignUpdateSchema>;

/** GET /api/campaign/{id}/numbers: the detail view's numbers, filterable by state. */
export const CampaignNumbersQuerySchema = z.object({
  status: z.enum(['pending', 'sending', 'sent', 'delivered', 'read', 'failed', 'invalid', 'duplicate', 'opted_out']).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
});
