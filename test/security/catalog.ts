import type { z } from 'zod';
import type { AccessLevelValue } from '../../api/policy/levels';
import { unique } from '../helpers/factories';
import type { TenantIds } from './tenant';
import { SignupSchema, LoginSchema, ForgotPasswordSchema, ResetPasswordSchema, ConfirmEmailSchema, RenewTokenSchema, ChangePasswordSchema, ProfileUpdateSchema, CompleteRegisterSchema, JoinWorkspaceSchema, InviteOperatorSchema, MemberUpdateSchema } from '../../api/auth/schema';
import { WorkspaceCreateSchema, WorkspaceUpdateSchema } from '../../api/workspaces/schema';
import { TagCreateSchema, TagUpdateSchema } from '../../api/tags/schema';
import { GroupCreateSchema, GroupUpdateSchema } from '../../api/groups/schema';
import { SegmentSaveSchema, SegmentSortSchema } from '../../api/segments/schema';
import { QuickPhraseSchema, QuickPhraseUpdateSchema } from '../../api/quickPhrases/schema';
import { CustomerPropertySchema, CustomerUpdateSchema, MergeCustomersSchema } from '../../api/customers/schema';
import { ContactImportSchema, EmailConversationSchema } from '../../api/contacts/schema';
import { PluginCreateSchema, PluginTokenSchema, PluginUpdateSchema } from '../../api/plugins/schema';
import { BusinessHoursCreateSchema, BusinessHoursUpdateSchema } from '../../api/businessHours/schema';
import { AssignmentRuleCreateSchema, AssignmentRuleUpdateSchema, AvailabilitySchema, PresenceSchema } from '../../api/assignment/schema';
import { ActiveChatSchema, AssignmentSchema, ComposingSchema, ConversationStatusSchema, ConversationTagsSchema, InitBotSchema, MessageSendSchema, TransferGroupSchema, TransferOperatorSchema } from '../../api/inbox/schema';
import { WidgetChannelSchema, WidgetChannelUpdateSchema } from '../../api/channels/widget/schema';
import { WebhookSettingsSchema } from '../../api/webhooks/schema';
import { WhatsappChannelSchema } from '../../api/channels/whatsapp/schema';
import { TelegramChannelSchema, TelegramChannelUpdateSchema } from '../../api/channels/telegram/schema';
import { FacebookPageConnectSchema } from '../../api/channels/facebook/schema';
import { InstagramConnectSchema } from '../../api/channels/instagram/schema';
import { EmailChannelSchema } from '../../api/channels/email/schema';
import { CustomChannelSchema } from '../../api/channels/custom/schema';
import { WidgetMessageSchema } from '../../api/channels/widget/visitorSchema';
import { BotSchema, newBot } from '../../api/bots/schema';
import { SortSchema } from '../../api/crud/resourceRouter';
import { QrRestartSchema } from '../../api/channels/whatsapp/qr/schema';
import { TemplateSendSchema } from '../../api/inbox/schema';
import { WhatsappLineUpdateSchema } from '../../api/channels/whatsapp/lineSettings';
import { EmailChannelUpdateSchema } from '../../api/channels/email/schema';
import { CampaignCreateSchema, CampaignUpdateSchema } from '../../api/campaigns/schema';
import { ScheduleBodySchema } from '../../api/reports/schedules';
import { ScheduleCreateSchema, ScheduleUpdateSchema } from '../../api/schedules/schema';
import { CsatAnswerSchema, CsatSettingsSchema } from '../../api/csat/schema';
import { FunnelCreateSchema, FunnelUpdateSchema, KanbanMoveSchema } from '../../api/kanban/schema';
import { localOf } from '../../api/schedules/recurrence';
import { TeamDirectSchema, TeamMessageEditSchema, TeamMessageSchema, TeamReadSchema, TeamRoomCreateSchema, TeamRoomUpdateSchema } from '../../api/teamChat/schema';
import { PushSubscriptionSchema } from '../../api/push/schema';
import { ChangePlanSchema, QuoteSchema, SubscribeSchema } from '../../api/billing/schema';
import { ContractDecisionSchema, ContractTypeUpdateSchema } from '../../api/contracts/schema';
import { TwoFactorChallengeSchema, TwoFactorCodeSchema, TwoFactorEnableSchema, TwoFactorLoginEnableSchema, TwoFactorLoginSchema, TwoFactorRequirementSchema, TwoFactorSetupSchema } from '../../api/twoFactor/schema';

/**
 * What the security suite knows about each route, keyed "METHOD /path" as appRoutes() names them. The
 * route list itself comes from the app: a route missing here fails the catalog test, and its :id
 * parameters are still swept with every foreign id meanwhile (routeMatrix.test.ts).
 *
 * `access` is SPEC §6 written out independently of api/policy/policy.ts:
 * - public: no session (account flows, widget, broker hooks, capability URLs);
 * - member: any level of the workspace (inbox calls; their own visibility rules are tested in test/inbox);
 * - settings(min): SPEC §6 "Level 6+ for workspace settings, channels, members, groups, business hours,
 *   assignment, bot, webhook, plugins, API; tags and quick phrases open to everyone". Reads that the inbox
 *   needs at every level (member and group names for transfer menus, channel names for filters, plugin
 *   tabs of the right panel) are `member` and say so.
 */
export type Access = { kind: 'public' } | { kind: 'member' } | { kind: 'settings'; min: AccessLevelValue };

export interface RouteSpec {
  access: Access;
  /** Values of the path parameters, from a tenant's ids. */
  params?(ids: TenantIds): Record<string, string | number>;
  query?(ids: TenantIds): Record<string, string>;
  /** A valid JSON body naming the tenant's rows. */
  body?(ids: TenantIds): Record<string, unknown>;
  /** The zod schema the handler parses the body with (fuzz). */
  schema?: z.ZodType;
  /** The body is multipart (uploads): covered by uploads.test.ts, not by JSON fuzzing. */
  multipart?: boolean;
  /** The body or query names tenant rows: another tenant's ids must be refused. */
  refs?: boolean;
  /** Consumes its target (delete, merge): each allowed call gets a fresh row from this create route. */
  freshFrom?: string;
  /** Statuses that mean "allowed and done" for the own-tenant call besides 2xx (with why). */
  okStatuses?: number[];
  /** Left out of the cross-tenant and level runs, with the reason. */
  skip?: string;
}

const pub: Access = { kind: 'public' };
const member: Access = { kind: 'member' };
const settings = (min: AccessLevelValue): Access => ({ kind: 'settings', min });
const everyone = settings(2);
const manager = settings(6);

const id = (ids: TenantIds, k: keyof TenantIds) => ({ id: ids[k] as number });
/** A scheduled message's time: tomorrow on the tenants' wall clock (their workspaces keep the default zone). */
const tomorrowAt = () => localOf(new Date(Date.now() + 86_400_000), 'America/Sao_Paulo');
const name = (p: string) => unique(p).slice(0, 40);
/** Above anything the tenants use (they gain members and lines during the run): an upgrade of their plan. */
const planBody = { license: 'enterprise', agents: 999, whatsapp: 99, instagram: 99, campaign: 1, months: 1 };
const tagBody = () => ({ name: name('Tag'), color: '#D1FADF', textColor: '#027A48' });

/** The generic resource routes (api/crud/resourceRouter.ts) of one area. */
function resource(
  path: string,
  idKey: keyof TenantIds,
  read: Access,
  write: Access,
  create: { schema: z.ZodType; update: z.ZodType; body: (ids: TenantIds) => Record<string, unknown>; sort?: boolean; refs?: boolean },
): Record<string, RouteSpec> {
  const out: Record<string, RouteSpec> = {
    [`GET ${path}`]: { access: read },
    [`GET ${path}/:id`]: { access: read, params: (ids) => id(ids, idKey) },
    [`POST ${path}`]: { access: write, body: create.body, schema: create.schema, refs: create.refs },
    [`PUT ${path}/:id`]: { access: write, params: (ids) => id(ids, idKey), body: create.body, schema: create.update, refs: create.refs },
    [`DELETE ${path}/:id`]: { access: write, params: (ids) => id(ids, idKey), freshFrom: `POST ${path}` },
  };
  if (create.sort !== false) out[`PATCH ${path}/sort`] = { access: write, body: (ids) => ({ ids: [ids[idKey] as number] }), schema: SortSchema, refs: true };
  return out;
}

export const CATALOG: Record<string, RouteSpec> = {
  'GET /api/health': { access: pub },

  // Account flows (test/auth): public or about the caller only.
  'POST /api/signup': { access: pub, schema: SignupSchema, body: () => ({ name: 'Ana', workspace: 'Loja', email: `${unique('s')}@exemplo.com.br`, password: '123456', acceptTerms: true }) },
  'POST /api/operators/login': { access: pub, schema: LoginSchema, body: () => ({ email: 'ninguem@exemplo.com.br', password: '123456' }) },
  'POST /api/operators/forgot-password': { access: pub, schema: ForgotPasswordSchema, body: () => ({ email: 'ninguem@exemplo.com.br' }) },
  'POST /api/operators/reset-password': { access: pub, schema: ResetPasswordSchema, body: () => ({ newPassword: '123456', confirmNewPassword: '123456', token: 'A'.repeat(43), email: 'a@exemplo.com.br' }) },
  'PUT /api/operators/reset-password': { access: pub, schema: ResetPasswordSchema, body: () => ({ newPassword: '123456', confirmNewPassword: '123456', token: 'A'.repeat(43), email: 'a@exemplo.com.br' }) },
  'POST /api/operators/confirm-email': { access: pub, schema: ConfirmEmailSchema, body: () => ({ token: 'A'.repeat(43) }) },
  'GET /api/operators/resend-email': { access: member, okStatuses: [400], skip: 'mails the caller; rate limited per operator' },
  'POST /api/operators/renew-token': { access: pub, schema: RenewTokenSchema, body: (ids) => ({ renewalToken: 'A'.repeat(43), workspaceId: ids.workspace }) },
  'POST /api/operators/change-password': { access: member, schema: ChangePasswordSchema, skip: 'ends the caller’s sessions (test/auth/passwords.test.ts)' },
  'PUT /api/operators/change-password': { access: member, schema: ChangePasswordSchema, skip: 'ends the caller’s sessions (test/auth/passwords.test.ts)' },
  'GET /api/operators/profile': { access: member },
  'PUT /api/operators/profile': { access: member, schema: ProfileUpdateSchema, body: () => ({ name: 'Pessoa Perfil' }) },
  // Two-factor login (test/twoFactor): the person's own switch, the step after the password (the challenge
  // token is the credential), and the owner's requirement (SPEC §6 has no level for it: owner only, read at 6+).
  'GET /api/operators/two-factor': { access: member },
  'POST /api/operators/two-factor/setup': { access: member, schema: TwoFactorSetupSchema, body: () => ({}) },
  'POST /api/operators/two-factor/enable': { access: member, schema: TwoFactorEnableSchema, body: () => ({ code: '123456' }) },
  'POST /api/operators/two-factor/disable': { access: member, schema: TwoFactorCodeSchema, body: () => ({ code: '123456' }) },
  'POST /api/operators/two-factor/backup-codes': { access: member, schema: TwoFactorCodeSchema, body: () => ({ code: '123456' }) },
  'POST /api/operators/login/two-factor': { access: pub, schema: TwoFactorLoginSchema, body: () => ({ challengeToken: 'A'.repeat(43), code: '123456' }) },
  'POST /api/operators/login/two-factor/setup': { access: pub, schema: TwoFactorChallengeSchema, body: () => ({ challengeToken: 'A'.repeat(43) }) },
  'POST /api/operators/login/two-factor/enable': { access: pub, schema: TwoFactorLoginEnableSchema, body: () => ({ challengeToken: 'A'.repeat(43), code: '123456' }) },
  'GET /api/workspace/two-factor': { access: manager },
  'PUT /api/workspace/two-factor': { access: settings(10), schema: TwoFactorRequirementSchema, body: () => ({ required: false }) },
  'GET /api/session': { access: member },
  'PUT /api/session': { access: member, schema: ProfileUpdateSchema, body: () => ({ name: 'Pessoa Sessão' }) },
  'POST /api/operators/complete-register': { access: pub, schema: CompleteRegisterSchema, body: () => ({ name: 'Ana', email: 'a@exemplo.com.br', password: '123456', token: 'A'.repeat(43) }) },
  'GET /api/operators/join-workspace': { access: pub, query: (ids) => ({ operatorId: String(ids.operator), workspaceId: String(ids.workspace), token: 'A'.repeat(43) }) },
  'POST /api/operators/join-workspace': { access: pub, schema: JoinWorkspaceSchema, body: (ids) => ({ operatorId: ids.operator, workspaceId: ids.workspace, token: 'A'.repeat(43) }) },
  'POST /api/operators/avatar': { access: member, multipart: true },
  'POST /api/operators/presence': { access: member, schema: PresenceSchema, body: () => ({ online: false }) },
  'PUT /api/operators/availability': { access: member, schema: AvailabilitySchema, body: () => ({ availability: 'online' }) },

  // Workspace settings and API token.
  'GET /api/workspace': { access: member },
  'POST /api/workspace': { access: member, schema: WorkspaceCreateSchema, body: () => ({ name: name('Filial') }) },
  'PUT /api/workspace': { access: manager, schema: WorkspaceUpdateSchema, body: () => ({ name: name('Empresa') }) },
  'POST /api/workspace/avatar': { access: manager, multipart: true },
  'GET /api/workspace/secrets': { access: manager },
  'POST /api/workspace/secrets': { access: manager },

  // Members: invitations at 6+, reads for the inbox's transfer menus; PUT has its own matrix (self/equal/higher).
  'POST /api/operator': { access: manager, schema: InviteOperatorSchema, body: (ids) => ({ name: 'Convidada', email: `${unique('c')}@exemplo.com.br`, accessLevel: 2, groups: [ids.group] }), refs: true },
  'GET /api/operator': { access: member },
  'GET /api/operator/:id': { access: member, params: (ids) => id(ids, 'operator') },
  'PUT /api/operator/:id': { access: manager, params: (ids) => id(ids, 'operator'), schema: MemberUpdateSchema, body: () => ({ isActive: true }) },

  ...resource('/api/label', 'label', everyone, everyone, { schema: TagCreateSchema, update: TagUpdateSchema, body: tagBody }),
  ...resource('/api/group', 'group', member, manager, { schema: GroupCreateSchema, update: GroupUpdateSchema, body: (ids) => ({ name: name('Grupo'), members: [ids.operator] }), refs: true }),
  ...resource('/api/inbox/quick-phrases', 'quickPhrase', everyone, everyone, {
    schema: QuickPhraseSchema,
    update: QuickPhraseUpdateSchema,
    body: () => ({ phrase: 'Bom dia!', tag: name('bd'), privacy: 'public' }),
  }),
  ...resource('/api/plugin', 'plugin', member, manager, { schema: PluginCreateSchema, update: PluginUpdateSchema, body: () => ({ name: name('Plugin'), endpoint: 'https://plugin.exemplo.com.br/p' }) }),
  // The short-lived token the inbox hands a plugin frame (docs/plugins.md): every level, like reading plugins.
  'POST /api/plugin/:id/token': { access: member, params: (ids) => id(ids, 'plugin'), schema: PluginTokenSchema, body: () => ({}) },
  ...resource('/api/business-hours', 'businessHours', manager, manager, { schema: BusinessHoursCreateSchema, update: BusinessHoursUpdateSchema, body: () => ({ name: name('Horário') }) }),
  ...resource('/api/assignment-rules', 'assignmentRule', manager, manager, {
    schema: AssignmentRuleCreateSchema,
    update: AssignmentRuleUpdateSchema,
    body: (ids) => ({ name: name('Regra'), isActive: false, rules: { group: ids.group, workspacePlatformId: ids.channel, businessHours: ids.businessHours } }),
    refs: true,
  }),
  ...resource('/api/bot', 'bot', manager, manager, { schema: BotSchema, update: BotSchema, body: () => ({ ...newBot(), name: name('Bot') }), sort: false }),

  // Channels: names for everyone (inbox filters), the widget settings at 6+.
  'GET /api/integrations/channel': { access: member },
  'POST /api/integrations/whatsapp': {
    access: manager,
    schema: WhatsappChannelSchema,
    body: () => ({ name: name('Linha'), phone: '+55 (11) 98765-4321', provider: 'cloud', phoneNumberId: '1234567890', businessAccountId: '987654321', accessToken: 'EAAG-test', appSecret: 'app-secret' }),
  },
  // QR reading modal and 'Reiniciar' (test/channels/whatsapp/qr/router.test.ts): the tenant's channel is a widget, not a QR line.
  'GET /api/integrations/whatsapp/qrcode/:id': { access: manager, params: (ids) => id(ids, 'channel'), okStatuses: [404] },
  'GET /api/integrations/whatsapp/:id': { access: manager, params: (ids) => id(ids, 'whatsappLine') },
  'PUT /api/integrations/whatsapp/:id': { access: manager, params: (ids) => id(ids, 'whatsappLine'), schema: WhatsappLineUpdateSchema, body: () => ({ name: name('Linha') }) },
  // A QR line has no templates (only Cloud lines do): 400/404 for the tenants' line.
  'GET /api/integrations/whatsapp/:id/templates': { access: manager, params: (ids) => id(ids, 'whatsappLine'), okStatuses: [400, 404, 503] },
  'GET /api/inbox/whatsapp-window/:id': { access: member, params: (ids) => id(ids, 'conversation') },
  // The tenants' conversation is a widget one: 400 ('Esta conversa não é do Facebook nem do Instagram').
  'GET /api/inbox/meta-window/:id': { access: member, params: (ids) => id(ids, 'conversation'), okStatuses: [400] },
  'GET /api/inbox/whatsapp-templates/:id': { access: member, params: (ids) => id(ids, 'conversation'), okStatuses: [400, 404] },
  // A widget conversation has no templates: 400 on name ('Modelos de mensagem só existem em linhas da API oficial').
  'POST /api/inbox/whatsapp-template': { access: member, schema: TemplateSendSchema, body: (ids) => ({ id: ids.conversation, name: 'pedido_atrasado', language: 'pt_BR' }), refs: true, okStatuses: [400] },
  'POST /api/integrations/restart': { access: manager, schema: QrRestartSchema, body: (ids) => ({ id: ids.channel }), refs: true, okStatuses: [400] },
  'POST /api/integrations/custom': { access: manager, schema: CustomChannelSchema, body: () => ({ description: name('Sistema'), hashIdentifier: 'https://93.184.215.14/balcao' }) },
  'GET /api/integrations/custom/:id': { access: manager, params: (ids) => id(ids, 'channel'), okStatuses: [404] },
  'GET /api/integrations/custom/:id/deliveries': { access: manager, params: (ids) => id(ids, 'channel'), okStatuses: [404] },
  'POST /api/integrations/mail': { access: manager, schema: EmailChannelSchema, body: () => ({ description: name('Suporte') }) },
  'GET /api/integrations/mail/:id': { access: manager, params: (ids) => id(ids, 'emailChannel') },
  'PUT /api/integrations/mail/:id': { access: manager, params: (ids) => id(ids, 'emailChannel'), schema: EmailChannelUpdateSchema, body: () => ({ description: name('Suporte') }) },
  'DELETE /api/integrations/mail/:id': { access: manager, params: (ids) => id(ids, 'emailChannel'), freshFrom: 'POST /api/integrations/mail' },
  // The tenants' message is not an e-mail: 404; any agent who sees the conversation may ask for the view.
  'POST /api/integrations/mail/messages/:messageId/html-view': { access: member, params: (ids) => ({ messageId: ids.message }), okStatuses: [404] },
  'GET /api/integrations/mail/html/:messageId': { access: pub, params: (ids) => ({ messageId: ids.message }), okStatuses: [404], skip: 'public by signed link: the signature is the credential, any fault a 404 (test/channels/email)' },
  // Campaigns (SPEC §6: level 6+). The tenants' campaign is paused on the widget channel.
  'GET /api/campaign': { access: manager },
  'GET /api/campaign/plan': { access: manager },
  'GET /api/campaign/:id': { access: manager, params: (ids) => id(ids, 'campaign') },
  'GET /api/campaign/:id/numbers': { access: manager, params: (ids) => id(ids, 'campaign') },
  // A trial workspace has no campaign units (403) and the widget is not a WhatsApp line (400).
  'POST /api/campaign': { access: manager, schema: CampaignCreateSchema, body: (ids) => ({ name: name('Campanha'), workspacePlatformId: ids.channel, message: [{ insert: 'Olá\n' }], file: 'numeros.csv', executionDate: new Date(Date.now() + 86_400_000).toISOString() }), refs: true, okStatuses: [400, 403] },
  'POST /api/campaign/numbers-file': { access: manager, multipart: true },
  'PUT /api/campaign/:id': { access: manager, params: (ids) => id(ids, 'campaign'), schema: CampaignUpdateSchema, body: () => ({ name: name('Campanha') }) },
  'POST /api/report/campaign/:id/link': { access: manager, params: (ids) => id(ids, 'campaign') },
  'GET /api/report/campaign/:id': { access: manager, params: (ids) => id(ids, 'campaign') },

  // Contracts (level 6+, docs/decisions.md; behaviour in test/api/contracts.test.ts).
  'GET /api/contract': { access: manager },
  'GET /api/contract/:id': { access: manager, params: (ids) => id(ids, 'contract') },
  'POST /api/contract/import': { access: manager, multipart: true },
  'PUT /api/contract/:id': { access: manager, params: (ids) => id(ids, 'contract'), schema: ContractTypeUpdateSchema, body: () => ({ code: 'ccb' }) },
  'POST /api/contract': { access: manager, schema: ContractTypeUpdateSchema, body: (ids) => ({ id: ids.contract, code: 'ccb' }), refs: true },
  // Rejected once (the first allowed call); after that it no longer waits for formalization: 409.
  'POST /api/contract/:id/status': { access: manager, params: (ids) => id(ids, 'contract'), schema: ContractDecisionSchema, body: () => ({ status: 'rejected' }), okStatuses: [409] },
  'POST /api/contract/:id/link': { access: manager, params: (ids) => id(ids, 'contract') },
  'GET /api/contract/:id/download': { access: manager, params: (ids) => id(ids, 'contract') },
  'DELETE /api/contract/:id': { access: manager, params: (ids) => id(ids, 'contract'), skip: 'deletes its target and has no JSON create route (test/api/contracts.test.ts); foreign ids still swept' },
  // Scheduled messages (docs/scheduled-messages.md; behaviour per level in test/api/schedules.test.ts): every level,
  // through the conversation's visibility; changing one is for its author or level 6+ (the callers here are 9 and 10).
  // Its filters name rows; another workspace's ids simply match nothing (test/api/schedules.test.ts).
  'GET /api/schedules': { access: member },
  'GET /api/schedules/:id': { access: member, params: (ids) => id(ids, 'scheduledMessage') },
  'POST /api/schedules': { access: member, schema: ScheduleCreateSchema, body: (ids) => ({ conversationId: ids.conversation, sendAt: tomorrowAt(), text: 'Olá {{nome}}' }), refs: true },
  'PUT /api/schedules/:id': { access: member, params: (ids) => id(ids, 'scheduledMessage'), schema: ScheduleUpdateSchema, body: () => ({ sendAt: tomorrowAt(), repeat: 'weekly', text: 'Lembrete' }) },
  // Consumes its target (canceled once, 409 after): each allowed call cancels a fresh one.
  'POST /api/schedules/:id/cancel': { access: member, params: (ids) => id(ids, 'scheduledMessage'), freshFrom: 'POST /api/schedules' },
  // The kanban (docs/kanban.md; visibility per level in test/kanban/visibility.test.ts): every level, each card through the
  // inbox's visibility; a move is the inbox's own command. Another workspace's funnel is a 404, its tag, group or stage a 400 on `to`.
  'GET /api/kanban': { access: member, query: (ids) => ({ groupBy: 'stage', funnelId: String(ids.funnel) }), refs: true },
  'GET /api/kanban/column': { access: member, query: (ids) => ({ groupBy: 'stage', funnelId: String(ids.funnel), column: String(ids.stage) }), refs: true },
  'POST /api/kanban/move': { access: member, schema: KanbanMoveSchema, body: (ids) => ({ id: ids.conversation, groupBy: 'stage', funnelId: ids.funnel, to: String(ids.stage) }), refs: true },
  // Funnels: read at every level (the board's columns), managed at 6+. PUT renames only: the tenant's stage stays for the routes above.
  'GET /api/funnels': { access: member },
  'GET /api/funnels/:id': { access: member, params: (ids) => id(ids, 'funnel') },
  'POST /api/funnels': { access: manager, schema: FunnelCreateSchema, body: () => ({ name: name('Funil'), stages: [{ name: 'Novo', color: '#2E90FA' }, { name: 'Ganho', color: '#12B76A' }] }) },
  'PUT /api/funnels/:id': { access: manager, params: (ids) => id(ids, 'funnel'), schema: FunnelUpdateSchema, body: () => ({ name: name('Funil') }) },
  'PATCH /api/funnels/sort': { access: manager, body: (ids) => ({ ids: [ids.funnel] }), schema: SortSchema, refs: true },
  'DELETE /api/funnels/:id': { access: manager, params: (ids) => id(ids, 'funnel'), freshFrom: 'POST /api/funnels' },
  // Team chat (docs/team-chat.md; membership per level in test/teamChat/): every level reads and writes in the rooms it is in
  // (another's room, or another workspace's, is a 404); rooms of its own are created and managed at 6+.
  'GET /api/team/rooms': { access: member },
  'POST /api/team/rooms': { access: manager, schema: TeamRoomCreateSchema, body: (ids) => ({ name: name('Sala'), members: [ids.operator] }), refs: true },
  'GET /api/team/rooms/:id': { access: member, params: (ids) => id(ids, 'teamRoom') },
  // Renames only: the tenant's room keeps its members for the routes below.
  'PUT /api/team/rooms/:id': { access: manager, params: (ids) => id(ids, 'teamRoom'), schema: TeamRoomUpdateSchema, body: () => ({ name: name('Sala') }) },
  'DELETE /api/team/rooms/:id': { access: manager, params: (ids) => id(ids, 'teamRoom'), freshFrom: 'POST /api/team/rooms' },
  'POST /api/team/direct': { access: member, schema: TeamDirectSchema, body: (ids) => ({ operatorId: ids.operator }), refs: true },
  'GET /api/team/search': { access: member, query: () => ({ q: 'Bom dia' }) },
  'GET /api/team/rooms/:id/messages': { access: member, params: (ids) => id(ids, 'teamRoom') },
  'POST /api/team/rooms/:id/messages': { access: member, params: (ids) => id(ids, 'teamRoom'), schema: TeamMessageSchema, body: () => ({ body: 'Alguém vê o #1?' }) },
  'GET /api/team/rooms/:id/messages/:messageId': { access: member, params: (ids) => ({ id: ids.teamRoom, messageId: ids.teamMessage }) },
  // The message is the level-9 member's: the owner's calls are refused as not its author (403), the level-9 caller's body
  // probe edits it within 15 minutes of the tenant's seeding (a long run may pass them: 409).
  'PUT /api/team/rooms/:id/messages/:messageId': { access: member, params: (ids) => ({ id: ids.teamRoom, messageId: ids.teamMessage }), schema: TeamMessageEditSchema, body: () => ({ body: 'Bom dia! (editada)' }), okStatuses: [403, 409] },
  'DELETE /api/team/rooms/:id/messages/:messageId': { access: member, params: (ids) => ({ id: ids.teamRoom, messageId: ids.teamMessage }), okStatuses: [403, 409] },
  'POST /api/team/rooms/:id/read': { access: member, params: (ids) => id(ids, 'teamRoom'), schema: TeamReadSchema, body: () => ({}) },
  // Reports (docs/reports.md): every level; below 6 the figures are the caller's own. Filter ids of another tenant are 400s.
  'GET /api/report': { access: member, query: (ids) => ({ channels: String(ids.channel), groups: String(ids.group), tags: String(ids.label) }), refs: true },
  'GET /api/report/calls': { access: member, query: (ids) => ({ metric: 'new', channels: String(ids.channel), tags: String(ids.label) }), refs: true },
  'GET /api/report/tags': { access: member, query: (ids) => ({ channels: String(ids.channel) }), refs: true },
  // CSAT (docs/csat.md; behaviour in test/csat/): the satisfaction report and its drill-down at every level (own calls below 6),
  // a channel's survey at 6+ like every channel setting; another workspace's channel is a 404.
  'GET /api/report/csat': { access: member, query: (ids) => ({ channels: String(ids.channel), groups: String(ids.group), tags: String(ids.label) }), refs: true },
  'GET /api/report/csat/calls': { access: member, query: (ids) => ({ rating: '5', channels: String(ids.channel), tags: String(ids.label) }), refs: true },
  'GET /api/csat/channels/:id': { access: manager, params: (ids) => id(ids, 'channel') },
  'PUT /api/csat/channels/:id': { access: manager, params: (ids) => id(ids, 'channel'), schema: CsatSettingsSchema, body: () => ({ enabled: true, question: 'Como foi o atendimento?' }) },
  'GET /api/report/customer': { access: member, query: (ids) => ({ channels: String(ids.channel) }), refs: true },
  // E-mail exports (every level, the caller's own visibility; the filters checked like the report's) and
  // scheduled exports (level 6+), docs/reports.md "Exports".
  'POST /api/report/export/email': { access: member, query: (ids) => ({ channels: String(ids.channel), groups: String(ids.group), tags: String(ids.label) }), refs: true, okStatuses: [202] },
  'POST /api/report/customer/export/email': { access: member, query: (ids) => ({ channels: String(ids.channel) }), refs: true, okStatuses: [202] },
  'POST /api/report/tags/export/email': { access: member, query: (ids) => ({ channels: String(ids.channel) }), refs: true, okStatuses: [202] },
  'POST /api/report/tags/export-email': { access: member, query: (ids) => ({ channels: String(ids.channel) }), refs: true, okStatuses: [202] },
  'POST /api/dashboard/agents/export/email': { access: member, query: (ids) => ({ groups: String(ids.group) }), refs: true, okStatuses: [202] },
  'GET /api/report/schedules': { access: manager },
  'POST /api/report/schedules': {
    access: manager,
    schema: ScheduleBodySchema,
    body: (ids) => ({ kind: 'conversations', frequency: 'weekly', recipients: [ids.operator], filters: { channels: [ids.channel] } }),
    refs: true,
  },
  'DELETE /api/report/schedules/:id': { access: manager, params: () => ({ id: 2_000_000_000 }), okStatuses: [404] },
  'GET /api/dashboard': { access: member },
  'GET /api/dashboard/agents': { access: member, query: (ids) => ({ groups: String(ids.group) }), refs: true },
  // Tests point TELEGRAM_API_URL at a closed loopback port: getMe gets no answer, a field error (test/channels/telegram/).
  'POST /api/integrations/telegram': { access: manager, schema: TelegramChannelSchema, body: () => ({ identifier: '123456789:AAtoken-de-teste-sem-telegram-real', description: name('Bot') }), okStatuses: [400] },
  'GET /api/integrations/telegram/:id': { access: manager, params: (ids) => id(ids, 'channel'), okStatuses: [404] },
  'PUT /api/integrations/telegram/:id': { access: manager, params: (ids) => id(ids, 'telegramLine'), schema: TelegramChannelUpdateSchema, body: () => ({ description: name('Bot') }) },
  'DELETE /api/integrations/telegram/:id': { access: manager, params: (ids) => id(ids, 'channel'), okStatuses: [404] },
  // Facebook and Instagram (test/channels/meta/): the suite's app has no META_* set, so the login explains what to set (400)
  // and a page is saved only from a login session (400 without one); the tenant's channel is a widget (404 here).
  'GET /api/integrations/meta/settings': { access: manager },
  'GET /api/integrations/facebook/oauth': { access: manager, okStatuses: [400] },
  'GET /api/integrations/facebook/pages': { access: manager, query: () => ({ session: 'sessao-invalida' }), okStatuses: [400] },
  'GET /api/integrations/facebook': { access: manager },
  'POST /api/integrations/facebook': { access: manager, schema: FacebookPageConnectSchema, body: () => ({ session: 'sessao-invalida', pageId: '1234567890' }), okStatuses: [400] },
  'GET /api/integrations/facebook/:id': { access: manager, params: (ids) => id(ids, 'channel'), okStatuses: [404] },
  'DELETE /api/integrations/facebook/:id': { access: manager, params: (ids) => id(ids, 'channel'), okStatuses: [404] },
  'GET /api/integrations/instagram/accounts': { access: manager },
  'POST /api/integrations/instagram': { access: manager, schema: InstagramConnectSchema, body: () => ({ instagramAccountId: '17841400000000000' }), okStatuses: [400] },
  'GET /api/integrations/instagram/:id': { access: manager, params: (ids) => id(ids, 'channel'), okStatuses: [404] },
  'DELETE /api/integrations/instagram/:id': { access: manager, params: (ids) => id(ids, 'channel'), okStatuses: [404] },
  'POST /api/integrations/widget': { access: manager, schema: WidgetChannelSchema, body: () => ({ description: name('Site'), avatar: '#123456' }) },
  // The widget's logo (issue 28): the avatar upload, at 6+ like the rest of the widget's settings.
  'POST /api/integrations/widget/logo': { access: manager, multipart: true },
  'GET /api/integrations/widget/:id': { access: manager, params: (ids) => id(ids, 'channel') },
  'PUT /api/integrations/widget/:id': { access: manager, params: (ids) => id(ids, 'channel'), schema: WidgetChannelUpdateSchema, body: () => ({ description: name('Site') }) },
  'DELETE /api/integrations/widget/:id': { access: manager, params: (ids) => id(ids, 'channel'), freshFrom: 'POST /api/integrations/widget' },

  'GET /api/webhook': { access: manager },
  'PUT /api/webhook': { access: manager, schema: WebhookSettingsSchema, body: () => ({ webhook: 'hooks.exemplo.com.br/balcao', email: '', subscriptions: { 'message:received': true } }) },
  'POST /api/webhook/secret': { access: manager },
  'GET /api/webhook/deliveries': { access: manager },
  'POST /api/webhook/deliveries/:id/replay': { access: manager, params: (ids) => id(ids, 'delivery'), skip: 'starts a delivery workflow; foreign ids still swept' },

  // Channel webhooks: authenticated by the provider's signature or verify token (test/channels/).
  'GET /api/hooks/whatsapp/:identifier': { access: pub, params: (ids) => ({ identifier: ids.channelIdentifier }), okStatuses: [403] },
  'POST /api/hooks/custom/:identifier': { access: pub, params: (ids) => ({ identifier: ids.channelIdentifier }), okStatuses: [401, 404], skip: 'signed per Standard Webhooks with the channel’s secret (test/channels/custom/custom.test.ts)' },
  'POST /api/hooks/telegram/:identifier': { access: pub, params: (ids) => ({ identifier: ids.channelIdentifier }), okStatuses: [401, 404], skip: 'authenticated by X-Telegram-Bot-Api-Secret-Token (test/channels/telegram/telegram.test.ts)' },
  'GET /api/hooks/whatsapp': { access: pub, okStatuses: [403] },
  'POST /api/hooks/whatsapp': { access: pub, okStatuses: [401], skip: 'app-level hook, signed by Meta with the app secret of the lines it names (test/channels/whatsapp/appWebhook.test.ts, test/security/webhookBodiesWhatsappCloud.test.ts)' },
  'POST /api/hooks/whatsapp/:identifier': { access: pub, params: (ids) => ({ identifier: ids.channelIdentifier }), okStatuses: [401, 404], skip: 'signed by Meta with the line’s app secret (test/channels/whatsapp/cloud.test.ts)' },
  'GET /api/hooks/meta': { access: pub, okStatuses: [403, 404], skip: 'Meta’s verification handshake with META_VERIFY_TOKEN (test/channels/meta/webhook.test.ts)' },
  'POST /api/hooks/meta': { access: pub, okStatuses: [401, 404], skip: 'signed by Meta with META_APP_SECRET (test/channels/meta/webhook.test.ts)' },
  'POST /api/hooks/asaas': { access: pub, okStatuses: [401], skip: 'the payment provider’s webhook, authenticated by asaas-access-token against ASAAS_WEBHOOK_TOKEN (test/billing/asaasWebhook.test.ts)' },
  'GET /api/hooks/meta/oauth': { access: pub, okStatuses: [302], skip: 'Meta’s login redirect, checked by its signed state (test/channels/meta/connect.test.ts)' },

  // Broker hooks for an external broker: authenticated by their body (test/realtime/hooks.test.ts).
  'POST /api/mqtt/auth': { access: pub, body: () => ({ clientid: 'x', username: 'x', password: 'x' }) },
  'POST /api/mqtt/acl': { access: pub, body: () => ({ clientid: 'x', username: 'x', topic: 'x', action: 'subscribe' }) },

  // Capability URLs: the unguessable key (and signature) is the credential, by design (api/avatars, api/assets).
  'GET /api/assets/download/:key': { access: pub, params: (ids) => ({ key: ids.assetKey }) },
  'GET /api/avatars/:key': { access: pub, params: (ids) => ({ key: ids.avatarKey }), skip: 'public by key: avatars show where no token travels (api/avatars/router.ts)' },
  'POST /api/assets/upload': { access: member, multipart: true },

  // Inbox calls: any level, each conversation through the visibility policy.
  'GET /api/inbox/segments': { access: member },
  'POST /api/inbox/segments': { access: member, schema: SegmentSaveSchema, body: (ids) => ({ name: name('Filtro'), isPublic: false, filters: { tags: [ids.label], groups: [ids.group], channels: [ids.channel], agents: [ids.operator] } }), refs: true },
  'PATCH /api/inbox/segments/sort': { access: member, schema: SegmentSortSchema, body: (ids) => ({ ids: [ids.segment] }), refs: true },
  'POST /api/inbox/segments/subscribe/:id': { access: member, params: (ids) => id(ids, 'segment') },
  'POST /api/inbox/segments/unsubscribe/:id': { access: member, params: (ids) => id(ids, 'segment') },
  'DELETE /api/inbox/segments/:id': { access: member, params: (ids) => id(ids, 'segment'), freshFrom: 'POST /api/inbox/segments' },
  'GET /api/inbox/customer/:customerId': { access: member, params: (ids) => ({ customerId: ids.customer }) },
  'PUT /api/inbox/customer/:customerId': { access: member, params: (ids) => ({ customerId: ids.customer }), schema: CustomerUpdateSchema, body: () => ({ name: 'Cliente Renomeado' }) },
  'POST /api/inbox/customer/:customerId/properties': { access: member, params: (ids) => ({ customerId: ids.customer }), schema: CustomerPropertySchema, body: () => ({ label: 'Bairro', value: 'Boa Viagem' }) },
  'DELETE /api/inbox/customer/:customerId/properties/:propertyId': { access: member, params: (ids) => ({ customerId: ids.customer, propertyId: ids.property }), skip: 'deletes the seeded property; foreign ids still swept' },
  'GET /api/inbox/media-messages': { access: member, query: (ids) => ({ id: String(ids.customer) }), refs: true },
  'PUT /api/customer/merge-customer': { access: settings(6), schema: MergeCustomersSchema, body: (ids) => ({ stayId: ids.customer, leaveId: ids.customer2 }), refs: true, skip: 'merging consumes a contact; foreign ids in fuzz and refs below' },
  'GET /api/customer/all-customers': { access: member },
  // The Contacts page (docs/contacts.md): the list at every level (its own visibility), the CSV import at 6+.
  'GET /api/customer': { access: member, query: () => ({ channels: 'whatsapp,widget', from: '2026-01-01', to: '2026-12-31' }) },
  'POST /api/customer/import/preview': { access: settings(6), schema: ContactImportSchema, body: () => ({ content: 'nome;telefone;email\nAna;+5581988887777;ana@exemplo.com.br' }) },
  'POST /api/customer/import': { access: settings(6), schema: ContactImportSchema, body: () => ({ content: 'nome;telefone\nAna Matriz;+5581988880000' }) },
  'POST /api/customer/:customerId/email-conversation': {
    access: member,
    params: (ids) => ({ customerId: ids.customer }),
    schema: EmailConversationSchema,
    body: (ids) => ({ workspacePlatformId: ids.emailChannel, subject: 'Oi', content: 'Olá' }),
    refs: true,
    // The seeded contact may have no e-mail: 'Este contato não tem e-mail.' is the handler's own answer.
    okStatuses: [400],
  },
  'GET /api/customer/properties': { access: member, query: () => ({ property: 'cidade' }) },
  'GET /api/inbox': { access: member },
  // One search over what the viewer may see (docs/search.md); its visibility per level is tested in test/inbox/search.test.ts.
  'GET /api/inbox/search': { access: member, query: () => ({ q: 'Olá' }) },
  'GET /api/inbox/conversations/:id': { access: member, params: (ids) => id(ids, 'conversation') },
  'POST /api/inbox/conversations/:id/read': { access: member, params: (ids) => id(ids, 'conversation') },
  'POST /api/inbox/counter': { access: member },
  'GET /api/inbox/messages': { access: member, query: (ids) => ({ id: String(ids.conversation) }), refs: true },
  'POST /api/inbox/messages': { access: member, schema: MessageSendSchema, body: (ids) => ({ id: ids.conversation, type: 2, content: [{ insert: 'nota\n' }] }), refs: true },
  'POST /api/inbox/messages/:messageId/retry': { access: member, params: (ids) => ({ messageId: ids.message }), okStatuses: [400], skip: 'only a failed message is retried (400 otherwise); foreign ids still swept' },
  'DELETE /api/inbox/messages/:messageId': { access: member, params: (ids) => ({ messageId: ids.message }), okStatuses: [400, 403], skip: 'customers’ messages cannot be deleted; foreign ids still swept' },
  'POST /api/inbox/favorites/:id': { access: member, params: (ids) => id(ids, 'conversation') },
  'DELETE /api/inbox/favorites/:id': { access: member, params: (ids) => id(ids, 'conversation') },
  'PUT /api/inbox/tag': { access: member, schema: ConversationTagsSchema, body: (ids) => ({ id: ids.conversation, tags: [ids.label] }), refs: true },
  'POST /api/inbox/assignment': { access: member, schema: AssignmentSchema, body: (ids) => ({ id: ids.conversation }), refs: true },
  // The tenants' channel is a widget: 400 on workspacePlatformId ('Selecione uma linha de WhatsApp.').
  'GET /api/inbox/active-chat/templates/:id': { access: member, params: (ids) => id(ids, 'channel'), okStatuses: [400] },
  'POST /api/inbox/active-chat': {
    access: member,
    schema: ActiveChatSchema,
    body: (ids) => ({ workspacePlatformId: ids.channel, phone: '+55 (11) 91234-5678', content: [{ insert: 'Olá\n' }] }),
    refs: true,
    // The tenants' channel is a widget: a new outbound conversation needs a WhatsApp line (400 on workspacePlatformId).
    okStatuses: [400],
  },
  'POST /api/calls/transfer-operator': { access: member, schema: TransferOperatorSchema, body: (ids) => ({ customerPlatformId: ids.conversation, operatorId: ids.operator }), refs: true },
  'POST /api/calls/transfer-group': { access: member, schema: TransferGroupSchema, body: (ids) => ({ customerPlatformId: ids.conversation, groupId: ids.group }), refs: true },
  'POST /api/calls/init-bot': { access: member, schema: InitBotSchema, body: (ids) => ({ customerPlatformId: ids.conversation, botId: ids.bot }), refs: true, okStatuses: [400, 409, 501] },
  'POST /api/integrations/composing': { access: member, schema: ComposingSchema, body: (ids) => ({ customerPlatformId: ids.conversation }), refs: true },
  'POST /api/inbox/:segment/:id': { access: member, params: (ids) => ({ segment: 'all', id: ids.conversation }), schema: ConversationStatusSchema, body: () => ({ status: 'open' }) },

  // Web Push devices (docs/pwa.md, test/push): any level, the caller's own devices only (another's id is a 404).
  'GET /api/push/public-key': { access: member },
  'GET /api/push/subscriptions': { access: member },
  'POST /api/push/subscriptions': {
    access: member,
    schema: PushSubscriptionSchema,
    body: () => ({ endpoint: `https://push.exemplo.com.br/send/${unique('sub')}`, keys: { p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url'), auth: Buffer.alloc(16, 1).toString('base64url') } }),
  },
  'DELETE /api/push/subscriptions/:id': { access: member, params: () => ({ id: 2_000_000_000 }), okStatuses: [404] },

  // Billing (docs/billing.md): the coupon field is on the change-plan screen, the settings tab's (level 9+, SPEC §6).
  // No coupon exists in the tenants: the allowed call is a 400 on `code` ('Cupom inválido.').
  'GET /api/payment/cupom/verify': { access: settings(9), query: () => ({ code: 'NAOEXISTE' }), okStatuses: [400] },
  // Reading the subscription, its usage and the invoices is the user menu's 'Assinatura' (6+); changing anything is the tab's (9+).
  'GET /api/payment/plans': { access: settings(6) },
  'GET /api/payment/subscription': { access: settings(6) },
  'GET /api/payment/invoices': { access: settings(6) },
  'GET /api/payment/invoices/:id': { access: settings(6), params: (ids) => ({ id: ids.invoice }) },
  'POST /api/payment/quote': { access: settings(9), schema: QuoteSchema, body: () => planBody },
  // The tenants hold a paid plan in force: subscribing again is a 409 until it is canceled; a change is an upgrade invoice.
  'POST /api/payment/subscribe': { access: settings(9), schema: SubscribeSchema, body: () => ({ ...planBody, method: 'pix', document: '529.982.247-25' }), okStatuses: [409] },
  'POST /api/payment/:subscriptionId/change': { access: settings(9), params: (ids) => ({ subscriptionId: ids.subscription }), schema: ChangePlanSchema, body: () => ({ ...planBody, method: 'boleto' }) },
  'DELETE /api/payment/:subscriptionId': { access: settings(9), params: (ids) => ({ subscriptionId: ids.subscription }) },
  // The tenants' transaction was never charged: simulating it is a 409 (a charge of another workspace is a 404).
  'POST /api/payment/invoices/:id/transactions/:transactionId/simulate': { access: settings(9), params: (ids) => ({ id: ids.invoice, transactionId: ids.invoiceTransaction }), okStatuses: [409] },

  // Public widget API: the visitor's token and the widget identifier are the credentials (test/widget).
  'GET /api/v1/widget/config': { access: pub, query: (ids) => ({ identifier: ids.channelIdentifier }) },
  'POST /api/v1/widget/messages': { access: pub, schema: WidgetMessageSchema, body: (ids) => ({ identifier: ids.channelIdentifier, content: 'Olá', type: 'text' }) },
  'GET /api/v1/widget/messages': { access: pub },
  'POST /api/v1/widget/files': { access: pub, multipart: true },
  // The visitor's rating (docs/csat.md): their session token, like the other visitor calls.
  'POST /api/v1/widget/csat': { access: pub, schema: CsatAnswerSchema, body: () => ({ rating: 5 }) },
};

/** Fills a non-id path parameter the sweep cannot guess (`/inbox/:segment/:id`). */
export const FIXED_PARAMS: Record<string, string> = { segment: 'all' };
