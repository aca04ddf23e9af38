import type { Knex } from 'knex';
import { BotSchema } from '../../../api/bots/schema';
import { assertBotReferences } from '../../../api/bots/references';
import { botColumns } from '../../../api/bots/repository';
import { loadBot, type BotRecord } from '../../../api/bots/queries';
import type { Team } from './team';

export const DEMO_BOT_NAME = 'Atendimento do site';

/** What the bot says, named so the history and the tests quote it instead of repeating it. */
export const BOT_TEXTS = {
  welcome: 'Olá! Aqui é a Padaria Pão Quente 🥖',
  menu: { title: 'Como podemos ajudar?', text: 'Responda com o número da opção:' },
  options: ['Fazer uma encomenda', 'Horários e endereço', 'Falar com a equipe'],
  orders: 'Fazemos bolos, tortas e salgados sob encomenda, com 24 horas de antecedência.',
  toSales: 'Vou chamar alguém da equipe de Vendas para fechar o seu pedido. É rapidinho!',
  hours: 'Funcionamos de segunda a sábado, das 6h às 20h, e domingo das 7h às 12h. Estamos na Rua das Flores, 120 – Centro.',
  more: 'Posso ajudar em mais alguma coisa?',
  toTeam: 'Certo! Já chamei alguém da nossa equipe de Atendimento.',
  bye: 'Obrigada pelo contato! Até logo 👋',
  expired: 'Encerramos a conversa por falta de resposta. É só escrever de novo quando quiser!',
} as const;

/**
 * The demo's menu bot, written as SPEC §3 gives a bot (guids chosen by hand, menu options as
 * `{name, goTo}`): a welcome, a menu of three options, and paths that hand the conversation to a group
 * or resolve it.
 */
export function demoBot(team: Team) {
  return {
    name: DEMO_BOT_NAME,
    isActive: false,
    priority: 10,
    channels: [team.widget.id],
    businessHours: [],
    userType: 'all',
    expire: { enabled: true, hours: 0, minutes: 30, message: BOT_TEXTS.expired },
    paths: [
      {
        guid: 'inicio',
        name: 'Início',
        actions: [
          { guid: 'boas-vindas', type: 'message', text: BOT_TEXTS.welcome },
          {
            guid: 'menu-inicio',
            type: 'menu',
            title: BOT_TEXTS.menu.title,
            text: BOT_TEXTS.menu.text,
            options: [
              { name: BOT_TEXTS.options[0], goTo: 'encomendas' },
              { name: BOT_TEXTS.options[1], goTo: 'horarios' },
              { name: BOT_TEXTS.options[2], goTo: 'equipe' },
            ],
          },
        ],
      },
      {
        guid: 'encomendas',
        name: 'Encomendas',
        actions: [
          { guid: 'encomendas-info', type: 'message', text: BOT_TEXTS.orders },
          { guid: 'encomendas-vendas', type: 'agent', assigneeType: 'group', assignee: team.groups.vendas, text: BOT_TEXTS.toSales },
        ],
      },
      {
        guid: 'horarios',
        name: 'Horários e endereço',
        actions: [
          { guid: 'horarios-info', type: 'message', text: BOT_TEXTS.hours },
          { guid: 'horarios-mais', type: 'menu', title: '', text: BOT_TEXTS.more, options: [{ name: 'Sim, voltar ao início', goTo: 'inicio' }, { name: 'Não, obrigado', goTo: 'fim' }] },
        ],
      },
      { guid: 'equipe', name: 'Falar com a equipe', actions: [{ guid: 'equipe-atendimento', type: 'agent', assigneeType: 'group', assignee: team.groups.atendimento, text: BOT_TEXTS.toTeam }] },
      { guid: 'fim', name: 'Fim', actions: [{ guid: 'fim-resolver', type: 'resolve', text: BOT_TEXTS.bye }] },
    ],
    layout: {
      inicio: { x: 0, y: 120 },
      encomendas: { x: 380, y: -120 },
      horarios: { x: 380, y: 140 },
      equipe: { x: 380, y: 400 },
      fim: { x: 760, y: 200 },
    },
  };
}

/**
 * Stores the bot as `POST /api/bot` would (the editor's schema, the workspace reference check, the same
 * columns), inactive: the history is written before it is switched on, so no seeded first contact starts
 * a session.
 */
export async function seedBot(trx: Knex.Transaction, team: Team, createdAt: Date): Promise<BotRecord> {
  const bot = BotSchema.parse(demoBot(team));
  await assertBotReferences(trx, team.workspaceId, bot);
  const [row] = await trx('bots')
    .insert({ ...botColumns(bot), workspaceId: team.workspaceId, createdAt, updatedAt: createdAt })
    .returning('id');
  return (await loadBot(trx, team.workspaceId, row.id as number))!;
}

/** Switches the bot on for the widget's new calls (the list's 'Ativo' toggle); its version moves to now. */
export async function activateBot(trx: Knex.Transaction, bot: BotRecord): Promise<void> {
  await trx('bots').where({ workspaceId: bot.workspaceId, id: bot.id }).update({ isActive: true, updatedAt: new Date() });
}
