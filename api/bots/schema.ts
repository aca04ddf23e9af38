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
/** SPEC §9: auto-expire 0 h 1 min; off until the bot enables it. */
export const DEFAULT_EXPIRE = { enabled: false, hours: 0, minutes: 1, message: '' } as const;

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

/**
 * SPEC §3 names paths, actions and menu options by a `guid`: any id its author chose — a UUID from the
 * editor, `inicio` or `menu-1` in a file written by hand. 1 to 64 letters, digits, `_`, `-` or `.` (not
 * first): the editor puts guids in its URLs (`/path/{guid}`) and joins them with `:` in handle ids.
 */
export const GUID_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/;
const GUID_MESSAGE = 'Identificador inválido: use de 1 a 64 letras, números, "-", "_" ou ".".';
const guid = z.string({ error: GUID_MESSAGE }).regex(GUID_PATTERN, GUID_MESSAGE);
/** A jump target; an empty string (a hand-written "nowhere") reads as null. */
const target = z
  .union([z.literal(''), guid], { error: GUID_MESSAGE })
  .nullish()
  .transform((v) => v || null);
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
    /** SPEC §3 does not list it: a file without it checks the reply by where it goes (e-mail, phone) or takes any text. */
    responseType: z.enum(RESPONSE_TYPES, { error: 'O tipo de resposta é obrigatório.' }).optional(),
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
  })
  .transform((a) => ({ ...a, responseType: a.responseType ?? defaultResponseType(a.inputProp) }));

function defaultResponseType(inputProp: (typeof INPUT_PROPS)[number]): ResponseType {
  return inputProp === 'email' ? 'email' : inputProp === 'phone' ? 'phone' : 'text';
}

export const AgentActionSchema = z.strictObject({
  ...base,
  type: z.literal('agent'),
  assigneeType: z.enum(['group', 'agent'], { error: 'Selecione grupo ou agente.' }),
  assignee: rowId('Selecione o destino do atendimento.'),
  text: optionalText(),
});

/** SPEC §3 gives an option as `{name, goTo}`: its guid is optional here and filled by the menu (optionGuids). */
export const MenuOptionSchema = z.strictObject({
  guid: guid.optional(),
  name: text('O nome da opção é obrigatório.', 200),
  goTo: target,
});

/**
 * Gives every option without a guid one derived from its menu's guid and its place (`<menu>-2`), never one
 * another option of the menu already has. Derived, not random: the same file saved twice gets the same
 * guids, and an option that comes back with its guid keeps it.
 */
export function optionGuids<O extends { guid?: string }>(menuGuid: string, options: O[]): (O & { guid: string })[] {
  const taken = new Set(options.flatMap((o) => (o.guid ? [o.guid] : [])));
  const stem = menuGuid.slice(0, 56);
  return options.map((o, k) => {
    if (o.guid) return o as O & { guid: string };
    let candidate = `${stem}-${k + 1}`;
    for (let n = 2; taken.has(candidate); n++) candidate = `${stem}-${k + 1}.${n}`;
    taken.add(candidate);
    return { ...o, guid: candidate };
  });
}

export const MenuActionSchema = z
  .strictObject({
    ...base,
    type: z.literal('menu'),
    title: optionalText(200),
    text: optionalText(),
    textInvalid: z.string().trim().max(4096).default(DEFAULT_MENU_INVALID).transform((s) => s || DEFAULT_MENU_INVALID),
    options: z.array(MenuOptionSchema).min(1, 'Adicione ao menos uma opção.').max(50, 'No máximo 50 opções.'),
  })
  .superRefine((menu, ctx) => {
    const seen = new Set<string>();
    menu.options.forEach((o, k) => {
      if (!o.guid) return;
      if (seen.has(o.guid)) ctx.addIssue({ code: 'custom', message: 'Opção duplicada.', path: ['options', k, 'guid'] });
      seen.add(o.guid);
    });
  })
  .transform((menu) => ({ ...menu, options: optionGuids(menu.guid, menu.options) }));

const goToPath = z.string({ error: 'Escolha o caminho de destino.' }).min(1, { message: 'Escolha o caminho de destino.', abort: true }).pipe(guid);

export const GotoActionSchema = z.strictObject({ ...base, type: z.literal('goto'), goToPath });

/** Jumps to another path like goto, but drawn as a sub-path in the editor (SPEC's `path` action). */
export const PathActionSchema = z.strictObject({ ...base, type: z.literal('path'), goToPath });

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
  failurePath: target,
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
  priority: z.number({ error: 'A prioridade deve ser um número.' }).int('A prioridade deve ser um número inteiro.').min(-1000000).max(1000000).default(0),
  channels: z.array(rowId('Canal inválido.')).max(200).default([]),
  businessHours: z.array(rowId('Horário comercial inválido.')).max(50).default([]),
  userType: z.enum(USER_TYPES, { error: 'Tipo de contato inválido.' }).default('all'),
  expire: ExpireSchema.default({ ...DEFAULT_EXPIRE }),
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

/** A bot as SPEC §3 gives it, bare (a file written by hand, another system's export): what 'Importar' also takes. */
export const BotDocumentSchema = z.strictObject(botFields);

/** A new bot (SPEC §9): named 'Bot', priority 0, expire 0 h 1 min, no paths. */
export function newBot(): BotInput {
  return {
    name: DEFAULT_BOT_NAME,
    isActive: false,
    priority: 0,
    channels: [],
    businessHours: [],
    userType: 'all',
    expire: { ...DEFAULT_EXPIRE },
    paths: [],
    layout: {},
  };
}

/** Whether a path can take one more action (SPEC §5). */
export function canAppendAction(path: { actions: { type: ActionType }[] }): boolean {
  const last = path.actions.at(-1);
  return !last || !TERMINAL_ACTIONS.includes(last.type);
}
