import { z } from 'zod';

/**
 * The bot definition (SPEC §3 Bot/Path/Action, §5 Bot rules, §9 Bot defaults), shared by the API and the
 * React Flow editor in the UI: one schema, so the editor refuses exactly what the API refuses.
 *
 * References to other rows (channels, business hours, tags, groups, agents) are checked against the
 * workspace by the API after this schema passed (api/bots/references.ts); references between paths
 * (menu option goTo, goto, path, integration failure branch) are checked here.
 */

export const DEFAULT_BOT_NAME = 'Bot';
export const DEFAULT_INPUT_INVALID = 'Campo inválido, escreva novamente.';
export const DEFAULT_MENU_INVALID = 'Não existe essa opção, tente novamente!';

export const ACTION_TYPES = ['message', 'input', 'agent', 'menu', 'goto', 'integration', 'resolve', 'tag', 'path'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** After one of these a path cannot get another action (SPEC §5): the flow leaves the path or ends. */
export const TERMINAL_ACTIONS: readonly ActionType[] = ['menu', 'agent', 'goto', 'path', 'resolve'];

/** How an input reply is checked before it is stored; `text` takes anything non-empty. */
export const RESPONSE_TYPES = ['text', 'number', 'email', 'phone', 'date', 'cpf'] as const;
export type ResponseType = (typeof RESPONSE_TYPES)[number];

/** Where an input reply goes: a fixed customer field or a custom property (inputPropName/inputPropCode). */
export const INPUT_PROPS = ['name', 'email', 'phone', 'custom'] as const;

export const USER_TYPES = ['all', 'unregistered', 'registered'] as const;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const guid = z.string({ error: 'Identificador inválido.' }).uuid('Identificador inválido.');
const text = (required: string, max = 4096) =>
  z.string({ error: required }).trim().min(1, required).max(max, `O texto deve ter no máximo ${max} caracteres.`);
const optionalText = (max = 4096) => z.string().trim().max(max, `O texto deve ter no máximo ${max} caracteres.`).default('');
const rowId = (message: string) => z.number({ error: message }).int(message).positive(message);

const base = { guid };

export const MessageActionSchema = z.strictObject({ ...base, type: z.literal('message'), text: text('O texto é obrigatório.') });

export const InputActionSchema = z
  .strictObject({
    ...base,
    type: z.literal('input'),
    text: text('O texto é obrigatório.'),
    responseType: z.enum(RESPONSE_TYPES, { error: 'O tipo de resposta é obrigatório.' }),
    inputProp: z.enum(INPUT_PROPS, { error: 'Selecione onde guardar a resposta.' }),
    inputPropName: z.string().trim().max(120, 'O nome deve ter no máximo 120 caracteres.').default(''),
    inputPropCode: z
      .string()
      .trim()
      .max(60, 'O código deve ter no máximo 60 caracteres.')
      .regex(/^[a-z]*$/, 'O código deve ter apenas letras minúsculas.')
      .default(''),
    inputInvalid: z.string().trim().max(4096).default(DEFAULT_INPUT_INVALID).transform((s) => s || DEFAULT_INPUT_INVALID),
  })
  .superRefine((a, ctx) => {
    if (a.inputProp !== 'custom') return;
    if (!a.inputPropName) ctx.addIssue({ code: 'custom', message: 'O nome da propriedade é obrigatório.', path: ['inputPropName'] });
    if (!a.inputPropCode) ctx.addIssue({ code: 'custom', message: 'O código da propriedade é obrigatório.', path: ['inputPropCode'] });
  });

export const AgentActionSchema = z.strictObject({
  ...base,
  type: z.literal('agent'),
  assigneeType: z.enum(['group', 'agent'], { error: 'Selecione grupo ou agente.' }),
  assignee: rowId('Selecione o destino do atendimento.'),
  text: optionalText(),
});

export const MenuOptionSchema = z.strictObject({
  guid,
  name: text('O nome da opção é obrigatório.', 200),
  goTo: guid.nullish(),
});

export const MenuActionSchema = z.strictObject({
  ...base,
  type: z.literal('menu'),
  title: optionalText(200),
  text: optionalText(),
  textInvalid: z.string().trim().max(4096).default(DEFAULT_MENU_INVALID).transform((s) => s || DEFAULT_MENU_INVALID),
  options: z.array(MenuOptionSchema).min(1, 'Adicione ao menos uma opção.').max(50, 'No máximo 50 opções.'),
});

export const GotoActionSchema = z.strictObject({ ...base, type: z.literal('goto'), goToPath: guid });

/** Jumps to another path like goto, but drawn as a sub-path in the editor (SPEC's `path` action). */
export const PathActionSchema = z.strictObject({ ...base, type: z.literal('path'), goToPath: guid });

export const IntegrationScriptSchema = z.strictObject({
  url: z.string({ error: 'A URL é obrigatória.' }).trim().min(1, 'A URL é obrigatória.').max(2048, 'URL longa demais.'),
  method: z.enum(HTTP_METHODS, { error: 'Método inválido.' }).default('GET'),
  headers: z.record(z.string(), z.string().max(4096)).default({}),
  body: z.string().max(65536, 'Corpo longo demais.').nullish(),
});

/** `{{code}}` placeholders in url, headers and body take customer properties; `map` copies response fields back. */
export const IntegrationActionSchema = z.strictObject({
  ...base,
  type: z.literal('integration'),
  name: text('O nome é obrigatório.', 120),
  text: optionalText(),
  script: IntegrationScriptSchema,
  map: z
    .array(
      z.strictObject({
        /** Dot path into the JSON response, e.g. `data.status`. */
        path: z.string().trim().min(1, 'Informe o campo da resposta.').max(200),
        code: z.string().trim().regex(/^[a-z][a-z0-9_]*$/, 'Código de propriedade inválido.').max(60),
      }),
    )
    .max(50)
    .default([]),
  /** Where the flow continues on an error, a non-2xx answer or a timeout; without it the session goes on. */
  failurePath: guid.nullish(),
});

export const ResolveActionSchema = z.strictObject({ ...base, type: z.literal('resolve'), text: optionalText() });

export const TagActionSchema = z.strictObject({ ...base, type: z.literal('tag'), tag: rowId('A etiqueta é obrigatória.'), text: optionalText() });

export const ActionSchema = z.discriminatedUnion('type', [
  MessageActionSchema,
  InputActionSchema,
  AgentActionSchema,
  MenuActionSchema,
  GotoActionSchema,
  IntegrationActionSchema,
  ResolveActionSchema,
  TagActionSchema,
  PathActionSchema,
]);
export type BotAction = z.infer<typeof ActionSchema>;
export type BotActionInput = z.input<typeof ActionSchema>;

export const PathSchema = z.strictObject({
  guid,
  name: text('O nome do caminho é obrigatório.', 120),
  actions: z.array(ActionSchema).max(200, 'Ações demais neste caminho.'),
});
export type BotPath = z.infer<typeof PathSchema>;

export const ExpireSchema = z
  .strictObject({
    /** Off by default: the session waits for the contact as long as it takes. */
    enabled: z.boolean().default(false),
    hours: z.number({ error: 'Horas inválidas.' }).int('Horas inválidas.').min(0, 'As horas devem ser 0 ou mais.').max(720, 'No máximo 720 horas.'),
    minutes: z.number({ error: 'Minutos inválidos.' }).int('Minutos inválidos.').min(0, 'Minutos inválidos.').max(59, 'No máximo 59 minutos.'),
    message: optionalText(),
  })
  .superRefine((e, ctx) => {
    if (e.hours === 0 && e.minutes < 1) ctx.addIssue({ code: 'custom', message: 'Com 0 horas, o mínimo é 1 minuto.', path: ['minutes'] });
  });

/** Editor node positions by path guid; saved with the bot so the canvas opens as it was left. */
export const LayoutSchema = z.record(guid, z.strictObject({ x: z.number().finite(), y: z.number().finite() })).default({});

const botFields = {
  name: text('O nome é obrigatório.', 120),
  isActive: z.boolean().default(false),
  priority: z.number({ error: 'A prioridade deve ser um número.' }).int('A prioridade deve ser um número inteiro.').min(-1000000).max(1000000),
  channels: z.array(rowId('Canal inválido.')).max(200).default([]),
  businessHours: z.array(rowId('Horário comercial inválido.')).max(50).default([]),
  userType: z.enum(USER_TYPES, { error: 'Tipo de contato inválido.' }).default('all'),
  expire: ExpireSchema,
  paths: z.array(PathSchema).max(200, 'Caminhos demais.'),
  layout: LayoutSchema,
};

/** Rules between paths: unique guids, every jump lands on an existing path, nothing after a terminal action. */
function checkPaths(bot: { paths: BotPath[] }, ctx: z.RefinementCtx) {
  const pathGuids = new Set<string>();
  const actionGuids = new Set<string>();
  bot.paths.forEach((p, i) => {
    if (pathGuids.has(p.guid)) ctx.addIssue({ code: 'custom', message: 'Caminho duplicado.', path: ['paths', i, 'guid'] });
    pathGuids.add(p.guid);
  });
  bot.paths.forEach((p, i) => {
    p.actions.forEach((a, j) => {
      const at = ['paths', i, 'actions', j];
      if (actionGuids.has(a.guid)) ctx.addIssue({ code: 'custom', message: 'Ação duplicada.', path: [...at, 'guid'] });
      actionGuids.add(a.guid);
      if (j < p.actions.length - 1 && TERMINAL_ACTIONS.includes(a.type)) {
        ctx.addIssue({ code: 'custom', message: 'Nenhuma ação pode vir depois desta.', path: [...at, 'type'] });
      }
      const missing = (target: string | null | undefined, field: (string | number)[]) => {
        if (target && !pathGuids.has(target)) ctx.addIssue({ code: 'custom', message: 'Caminho não encontrado.', path: [...at, ...field] });
      };
      if (a.type === 'goto' || a.type === 'path') missing(a.goToPath, ['goToPath']);
      if (a.type === 'menu') a.options.forEach((o, k) => missing(o.goTo, ['options', k, 'goTo']));
      if (a.type === 'integration') missing(a.failurePath, ['failurePath']);
    });
  });
}

export const BotSchema = z.strictObject(botFields).superRefine(checkPaths);
export type BotReq = z.infer<typeof BotSchema>;
export type BotInput = z.input<typeof BotSchema>;

/** PUT /api/bot/:id sends the whole bot (SPEC §7), the list's active toggle included. */
export const BotUpdateSchema = BotSchema;

/** The file 'Importar' reads and 'Exportar' writes: the bot without ids of this workspace's rows is not portable, so they are kept and re-checked on save. */
export const BotExportSchema = z.strictObject({ balcaoBot: z.literal(1), bot: z.strictObject(botFields) });

/** A new bot (SPEC §9): named 'Bot', priority 0, expire 0 h 1 min, no paths. */
export function newBot(): BotInput {
  return {
    name: DEFAULT_BOT_NAME,
    isActive: false,
    priority: 0,
    channels: [],
    businessHours: [],
    userType: 'all',
    expire: { enabled: false, hours: 0, minutes: 1, message: '' },
    paths: [],
    layout: {},
  };
}

/** Whether a path can take one more action (SPEC §5). */
export function canAppendAction(path: { actions: { type: ActionType }[] }): boolean {
  const last = path.actions.at(-1);
  return !last || !TERMINAL_ACTIONS.includes(last.type);
}
