import {
  condition,
  defineQuery,
  defineSignal,
  proxyActivities,
  makeContinueAsNewFunc,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { BotAction, BotPath } from '../../api/bots/schema';
import { checkReply, menuText, pickOption } from './replies';

/** The bot as it was when the session started: running sessions keep it, whatever is saved later. */
export interface BotSnapshot {
  botId: number;
  botName: string;
  /** The bot's updated_at at start (bot_sessions.bot_version). */
  version: string;
  paths: BotPath[];
  expire: { enabled: boolean; hours: number; minutes: number; message: string };
}

/** Where a session is; carried over continueAsNew so the next run goes on from the same spot. */
export interface BotSessionState {
  pathGuid: string | null;
  actionIndex: number;
  /** Counts side effects; with the session id it makes every idempotency key. */
  step: number;
  /**
   * Set while the bot waits for a reply to the action at (pathGuid, actionIndex): the prompt went out at
   * `since` (ms) as message `afterMessageId`; customer messages stored before it are not its answer.
   */
  waiting: { since: number; afterMessageId?: number } | null;
  inbox: BotInbound[];
}

export interface BotSessionInput {
  workspaceId: number;
  conversationId: number;
  callId: number;
  /** bot_sessions.id: the row the API opened for this run of the bot. */
  sessionId: number;
  bot: BotSnapshot;
  resume?: BotSessionState;
  /** continueAsNew once the history passes this many events (tests lower it). */
  historyLimit?: number;
}

/** A customer message to the conversation, signalled after its inbound transaction committed. */
export interface BotInbound {
  messageId: number;
  callId: number;
  text: string;
}

export type BotSessionEnd = 'finished' | 'expired' | 'transferred' | 'canceled' | 'failed' | 'replaced';

/** Inbound customer messages of the conversation. */
export const botMessageSignal = defineSignal<[BotInbound]>('botMessage');
/** A (new) session for the conversation: the one running gives way to it (signal-with-start). */
export const botStartSignal = defineSignal<[BotSessionInput]>('botStart');
/** 'Atendimento manual': the API already closed the session row; the workflow just stops. */
export const botStopSignal = defineSignal<[]>('botStop');
/** Where the session is (operators' debugging; tests). */
export const botStateQuery = defineQuery<BotSessionState & { sessionId: number; botVersion: string }>('botState');

/** Every bot side effect is quick database work: local activities keep a turn to a handful of history events. */
const local = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/** The integration's HTTP call has its own timeout; it is not retried (an error follows the failure path). */
const remote = proxyActivities<Activities>({ startToCloseTimeout: '1 minute', retry: { maximumAttempts: 1 } });

/** What operators search for in the Temporal Web UI; set at start and on every continueAsNew. */
export function botSessionMemo(input: Pick<BotSessionInput, 'workspaceId' | 'conversationId' | 'bot'>): Record<string, unknown> {
  return { workspaceId: input.workspaceId, botId: input.bot.botId, botName: input.bot.botName, conversationId: input.conversationId };
}

function continueAsNewWithMemo(next: BotSessionInput): Promise<never> {
  return makeContinueAsNewFunc<typeof botSession>({ memo: botSessionMemo(next) })(next);
}

const DEFAULT_HISTORY_LIMIT = 2000;
/** goto/path jumps in a row without waiting for the contact: more means a loop in the flow. */
const MAX_JUMPS = 100;

/**
 * One bot run on one conversation, `bot-session:{conversationId}` (docs/bots.md). Actions run in order
 * from the first path; input and menu wait for the contact's reply (botMessageSignal), with the expiry
 * timer when the bot enables it. Every side effect is an activity keyed by session and step, so a replay
 * or a retried activity never sends twice. The bot_sessions row is the truth: an activity that finds the
 * session closed (stopped from the inbox, replaced, call resolved) ends the run.
 */
export async function botSession(input: BotSessionInput): Promise<BotSessionEnd> {
  const { bot } = input;
  const workflowId = workflowInfo().workflowId;
  const state: BotSessionState = input.resume ?? { pathGuid: bot.paths[0]?.guid ?? null, actionIndex: 0, step: 0, waiting: null, inbox: [] };
  let replacement: BotSessionInput | undefined;
  let stopped = false;

  setHandler(botMessageSignal, (m) => {
    // Messages of an earlier call belong to nobody here.
    if (m.callId === input.callId) state.inbox.push(m);
  });
  setHandler(botStartSignal, (next) => {
    if (next.sessionId !== input.sessionId) replacement = next;
  });
  setHandler(botStopSignal, () => {
    stopped = true;
  });
  setHandler(botStateQuery, () => ({ ...state, sessionId: input.sessionId, botVersion: bot.version }));

  const ids = { workspaceId: input.workspaceId, conversationId: input.conversationId, sessionId: input.sessionId };
  const nextKey = () => `${workflowId}#${input.sessionId}#${++state.step}`;
  /** Sends a text (nothing for a blank one); false when the session turned out to be over. */
  const sendText = async (text: string) => (text.trim() ? local.botSend({ ...ids, key: nextKey(), text }) : { active: true, messageId: 0 });
  const send = async (text: string) => (await sendText(text)).active;
  const end = async (status: 'finished' | 'failed') => {
    await local.botEnd({ ...ids, status });
    return status;
  };
  const expireMs = bot.expire.enabled ? (bot.expire.hours * 60 + bot.expire.minutes) * 60_000 : 0;

  /** The next reply, or why there is none. */
  const nextReply = async (): Promise<BotInbound | 'expired' | 'interrupted'> => {
    const waiting = state.waiting!;
    const interrupted = () => stopped || replacement !== undefined;
    // What the contact wrote before the question went out (the message that started the session, say) is not its answer.
    const fresh = () => {
      state.inbox = state.inbox.filter((m) => m.messageId > (waiting.afterMessageId ?? 0));
      return state.inbox.length > 0;
    };
    if (!fresh() && !interrupted()) {
      if (workflowInfo().historyLength > (input.historyLimit ?? DEFAULT_HISTORY_LIMIT) || workflowInfo().continueAsNewSuggested) {
        await continueAsNewWithMemo({ ...input, resume: state });
      }
      const ready = () => fresh() || interrupted();
      if (expireMs) {
        if (!(await condition(ready, Math.max(1, waiting.since + expireMs - Date.now())))) return 'expired';
      } else {
        await condition(ready);
      }
    }
    if (interrupted()) return 'interrupted';
    return state.inbox.shift()!;
  };

  const jump = (target: string | null | undefined) => {
    state.pathGuid = target ?? null;
    state.actionIndex = 0;
  };

  let jumps = 0;
  for (;;) {
    if (stopped) return 'canceled';
    if (replacement) return continueAsNewWithMemo(replacement);
    const path = bot.paths.find((p) => p.guid === state.pathGuid);
    const action: BotAction | undefined = path?.actions[state.actionIndex];
    // A path that runs out of actions (or a jump to nowhere) ends the session.
    if (!action) return end('finished');

    switch (action.type) {
      case 'message':
        if (!(await send(action.text))) return 'canceled';
        state.actionIndex++;
        break;

      case 'goto':
      case 'path':
        if (++jumps > MAX_JUMPS) return end('failed');
        jump(action.goToPath);
        break;

      case 'input':
      case 'menu': {
        if (!state.waiting) {
          const prompt = await sendText(action.type === 'menu' ? menuText(action) : action.text);
          if (!prompt.active) return 'canceled';
          state.waiting = { since: Date.now(), afterMessageId: prompt.messageId };
        }
        const reply = await nextReply();
        if (reply === 'interrupted') continue;
        if (reply === 'expired') {
          await local.botResolve({ ...ids, key: nextKey(), text: bot.expire.message, status: 'expired' });
          return 'expired';
        }
        jumps = 0;
        if (action.type === 'input') {
          const checked = checkReply(action.responseType, reply.text);
          if (!checked.ok) {
            if (!(await send(action.inputInvalid))) return 'canceled';
            state.waiting = { ...state.waiting!, since: Date.now() };
            break;
          }
          const stored = await local.botStoreInput({ ...ids, inputProp: action.inputProp, inputPropName: action.inputPropName, inputPropCode: action.inputPropCode, value: checked.value });
          if (!stored.active) return 'canceled';
          state.waiting = null;
          state.actionIndex++;
          break;
        }
        const option = pickOption(action, reply.text);
        if (option < 0) {
          if (!(await send(action.textInvalid))) return 'canceled';
          state.waiting = { ...state.waiting!, since: Date.now() };
          break;
        }
        state.waiting = null;
        jump(action.options[option].goTo);
        break;
      }

      case 'agent':
        await local.botHandoff({ ...ids, key: nextKey(), text: action.text, assigneeType: action.assigneeType, assignee: action.assignee });
        return 'transferred';

      case 'resolve':
        await local.botResolve({ ...ids, key: nextKey(), text: action.text, status: 'finished' });
        return 'finished';

      case 'tag': {
        const tagged = await local.botTag({ ...ids, key: nextKey(), tagId: action.tag, text: action.text });
        if (!tagged.active) return 'canceled';
        state.actionIndex++;
        break;
      }

      case 'integration': {
        if (!(await send(action.text))) return 'canceled';
        const result = await remote.botIntegration({ ...ids, script: action.script, map: action.map }).catch(() => ({ ok: false, active: true }));
        if (!result.active) return 'canceled';
        if (!result.ok && action.failurePath) {
          if (++jumps > MAX_JUMPS) return end('failed');
          jump(action.failurePath);
        } else state.actionIndex++;
        break;
      }

      default:
        return end('failed');
    }
  }
}
