import type { Knex } from 'knex';
import { CSAT_ANSWER_DAYS, CSAT_DEFAULTS } from '../../../api/csat/schema';
import type { CsatSettings } from '../../../api/csat/settings';
import { MessageStatus, MessageType } from '../../../api/models/Message';
import { prng } from '../prng';
import type { Member, Team } from './team';

const DAY = 86_400_000;
const MINUTE = 60_000;

/** The demo widget's survey was turned on this many days ago: calls resolved since then were asked. */
export const CSAT_SINCE_DAYS = 60;

/** The widget's survey as its settings page saves it (docs/csat.md): on, numbers, the default texts. */
export const DEMO_CSAT: CsatSettings = { enabled: true, scale: 'numbers', question: 'Como você avalia o atendimento da Padaria Pão Quente?', thanks: CSAT_DEFAULTS.thanks, template: null };

/** How each member's customers tend to rate (weights of 1 to 5): the reports show a spread per agent. */
const WEIGHTS: Record<Member, number[]> = {
  owner: [0, 0, 1, 3, 12],
  admin: [0, 1, 1, 4, 10],
  supervisor: [0, 1, 2, 6, 8],
  agent: [1, 1, 3, 7, 7],
  restricted: [1, 2, 4, 6, 4],
};
const COMMENTS: Record<number, string[]> = {
  1: ['Demoraram muito para responder.', 'Não resolveram meu problema.'],
  2: ['O pedido veio errado de novo.', 'Atendimento confuso.'],
  3: ['Resolveu, mas demorou um pouco.', 'Ok.'],
  4: ['Bom atendimento, obrigada!', 'Resolveram rápido.'],
  5: ['Atendimento excelente!', 'Muito atenciosos, recomendo.', 'Amei, obrigada pela paciência!'],
};
/** Calls of the story (conversations.ts) rated as the inbox tells it; the others are drawn. */
const STORY: Record<string, { rating: number; comment: string | null } | 'unanswered'> = {
  'Mariana Costa': { rating: 5, comment: 'O bolo ficou lindo e o atendimento foi ótimo!' },
  'Patrícia Alves': { rating: 2, comment: 'Demorou para alguém me responder.' },
  'Eduardo Ramos': 'unanswered',
};

function weighted(rand: () => number, weights: number[]): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let r = rand() * total;
  for (const [i, w] of weights.entries()) {
    r -= w;
    if (r < 0) return i + 1;
  }
  return weights.length;
}

/**
 * The satisfaction survey in the demo's history (docs/csat.md, docs/demo.md): every call resolved in the last
 * CSAT_SINCE_DAYS days — the older history (pastMonths.ts) and the story (conversations.ts) alike — got the
 * widget's question a second after its resolve, as 'Resolver' stores it (a BOT message in the call under the
 * key `csat:{callId}`); about two in three were answered within two hours with the buttons, ratings leaning
 * on who served the call, a complaint rating lower, some with a comment. Written as rows at their moments
 * (the question's `extra_data.csat` and the call's `csat_*` columns), like the rest of the history.
 * Deterministic (its own PRNG, so the history's draws stay as they were). Answers the number of ratings.
 */
export async function writePastRatings(trx: Knex.Transaction, team: Team, now: Date): Promise<number> {
  const rand = prng(20261130);
  const memberOf = new Map(Object.entries(team.members).map(([key, m]) => [m.id, key as Member]));
  const calls: { id: number; customerPlatformId: number; operatorId: number | null; finishedAt: Date; name: string | null; complaint: boolean }[] = await trx('calls as k')
    .join('customer_platforms as cp', 'cp.id', 'k.customer_platform_id')
    .join('customers as c', 'c.id', 'cp.customer_id')
    .where('k.workspace_id', team.workspaceId)
    .where('k.is_finished', true)
    .where('cp.channel_id', team.widget.id)
    .where('k.finished_at', '>=', new Date(now.getTime() - CSAT_SINCE_DAYS * DAY))
    .orderBy('k.id')
    .select('k.id', 'k.customer_platform_id', 'k.operator_id', 'k.finished_at', 'c.name', trx.raw('EXISTS (SELECT 1 FROM call_labels cl WHERE cl.call_id = k.id AND cl.label_id = ?) AS complaint', [team.tags.reclamacao]));
  const storyFirst = new Set<string>();
  let rated = 0;
  for (const call of calls) {
    const askedAt = new Date(call.finishedAt.getTime() + 1000);
    const until = new Date(askedAt.getTime() + CSAT_ANSWER_DAYS * DAY);
    // The story's conversations: their first resolved call is rated as told.
    const told = call.name && STORY[call.name] !== undefined && !storyFirst.has(call.name) ? STORY[call.name] : undefined;
    if (told) storyFirst.add(call.name!);
    let answer: { rating: number; comment: string | null; at: Date } | undefined;
    const draw = rand();
    if (told && told !== 'unanswered') answer = { ...told, at: new Date(askedAt.getTime() + 7 * MINUTE) };
    else if (!told && draw < 0.65) {
      const member = call.operatorId ? memberOf.get(call.operatorId) : undefined;
      const weights = member ? WEIGHTS[member] : [1, 1, 2, 4, 4];
      const rating = Math.max(1, weighted(rand, weights) - (call.complaint ? 1 : 0));
      const comment = rand() < 0.35 ? COMMENTS[rating]![Math.floor(rand() * COMMENTS[rating]!.length)]! : null;
      answer = { rating, comment, at: new Date(askedAt.getTime() + (1 + Math.floor(rand() * 120)) * MINUTE) };
    }
    if (answer && answer.at.getTime() >= now.getTime()) answer = undefined;
    const csat = { kind: 'question', callId: call.id, scale: DEMO_CSAT.scale, thanks: DEMO_CSAT.thanks, until: until.toISOString(), ...(answer ? { rating: answer.rating, comment: answer.comment, answeredAt: answer.at.toISOString() } : {}) };
    const [question] = await trx('messages')
      .insert({
        workspaceId: team.workspaceId,
        customerPlatformId: call.customerPlatformId,
        callId: call.id,
        content: JSON.stringify([{ insert: `${DEMO_CSAT.question}\n` }]),
        text: `${DEMO_CSAT.question}\n`,
        type: MessageType.BOT,
        status: MessageStatus.RECEIVED,
        sender: 'bot',
        idempotencyKey: `csat:${call.id}`,
        extraData: JSON.stringify({ csat }),
        createdAt: askedAt,
        updatedAt: answer?.at ?? askedAt,
      })
      .returning('id');
    await trx('messages').where({ id: question.id }).update({ externalId: `w-${question.id}` });
    await trx('calls')
      .where({ id: call.id })
      .update({
        csatState: answer ? 'answered' : 'sent',
        csatRequestedAt: askedAt,
        csatMessageId: question.id,
        ...(answer ? { csatRating: answer.rating, csatComment: answer.comment, csatAnsweredAt: answer.at } : {}),
      });
    if (answer) rated++;
  }
  return rated;
}

/** The widget's survey on, as its settings page leaves it: a demo user who resolves a conversation sees it go out. */
export async function enableDemoCsat(trx: Knex.Transaction, team: Team): Promise<void> {
  await trx('channels').where({ workspaceId: team.workspaceId, id: team.widget.id }).update({ csat: JSON.stringify(DEMO_CSAT) });
}
