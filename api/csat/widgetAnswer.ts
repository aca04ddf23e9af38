import type { AppDeps } from '../deps';
import { errors } from '../http/errors';
import type { VisitorSession } from '../auth/visitorSessions';
import { afterCsatAnswer, pendingCsatCall, recordCsatAnswer, type CsatConversation, type RecordedCsat } from './recordAnswer';
import type { CsatView } from './present';
import type { CsatAnswerSchema } from './schema';
import type { z } from 'zod';

export const CSAT_WIDGET_TEXTS = {
  none: 'Não há avaliação de atendimento para responder.',
  answered: 'Este atendimento já foi avaliado. Obrigado!',
  closed: 'O prazo para avaliar este atendimento terminou.',
} as const;

type Input = z.output<typeof CsatAnswerSchema>;

/**
 * POST /v1/widget/csat: the visitor rates the last resolved call of their conversation with the widget's
 * buttons (docs/csat.md). Only the first answer within CSAT_ANSWER_DAYS of the resolve counts, and only
 * while no new call was opened: a second answer is a 409 'já foi avaliado', a late one (or one to a question a
 * new message has left behind) a 409 'O prazo … terminou', none at all a 404. A `messageId` naming another
 * question than the pending one is refused the same way. Nothing reopens, nothing reaches a bot.
 */
export async function answerFromWidget(deps: AppDeps, visitor: VisitorSession, input: Input): Promise<{ messageId: number | null; csat: CsatView | undefined }> {
  const now = new Date();
  const recorded = await deps.knex.transaction(async (trx): Promise<RecordedCsat> => {
    const cp: CsatConversation | undefined = await trx('customer_platforms')
      .where({ workspaceId: visitor.workspaceId, channelId: visitor.channelId, externalId: visitor.visitorId })
      .forUpdate()
      .first('id', 'workspace_id', 'channel_id', 'customer_id', 'external_id', 'operator_id', 'group_id', 'bot_id', 'current_call_id', 'is_finished', 'has_new_messages', 'last_message_at', 'csat_call_id', 'csat_until');
    if (!cp) throw errors.notFound(CSAT_WIDGET_TEXTS.none);
    const callId = pendingCsatCall(cp, now);
    const pendingMessage = callId ? await trx('calls').where({ id: callId }).first('csat_message_id') : undefined;
    if (!callId || (input.messageId !== undefined && Number(pendingMessage?.csatMessageId) !== input.messageId)) {
      // Why not: the question asked about (or the latest one) was answered, or its time has passed.
      const asked = trx('calls').where({ workspaceId: visitor.workspaceId, customerPlatformId: cp.id }).whereIn('csat_state', ['sent', 'answered']);
      if (input.messageId !== undefined) asked.where({ csatMessageId: input.messageId });
      const last = await asked.orderBy('id', 'desc').first('csat_state');
      if (!last) throw errors.notFound(CSAT_WIDGET_TEXTS.none);
      throw errors.conflict(last.csatState === 'answered' ? CSAT_WIDGET_TEXTS.answered : CSAT_WIDGET_TEXTS.closed);
    }
    const done = await recordCsatAnswer(trx, cp, callId, { rating: input.rating, comment: input.comment }, now, { thanks: false });
    if (!done) throw errors.conflict(CSAT_WIDGET_TEXTS.answered);
    return done;
  });
  await afterCsatAnswer(deps, recorded);
  return { messageId: recorded.questionMessageId, csat: recorded.view };
}
