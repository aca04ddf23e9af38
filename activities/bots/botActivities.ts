import type { Knex } from 'knex';
import { guardedFetch } from '../../api/http/guardedFetch';
import { finishOpenCall } from '../../api/conversations/calls';
import { recordWebhookEvent } from '../../api/webhooks/recordWebhookEvent';
import { sessionStatusData } from '../../api/webhooks/payloads';
import { publishConversationEvent } from '../../api/conversations/fanout';
import { operatorsWhoCanSee } from '../../api/policy/conversations';
import { applyAssignment, assignNewCall, pickAssignee } from '../../api/assignment/assignNewCall';
import { eligibleAgents } from '../../api/assignment/queries';
import { AssignmentRule } from '../../api/models/AssignmentRule';
import { scoped } from '../../api/db/scope';
import { finishSession, lockActiveSession } from '../../api/bots/runtime/sessionRows';
import { customerValues, fillPlaceholders, readPath } from '../../api/bots/runtime/placeholders';
import { findKeyedMessage, lockLiveSession, publishAndDeliver, storeBotMessage, type SessionRef } from './botMessages';
import type { ActivityDeps } from '../deps';
import { DEFAULT_BOT_ACTIVITY_OPTIONS, withConfig, type BotActivityDeps, type BotActivityOptions } from './deps';

export interface BotSendInput extends SessionRef {
  key: string;
  text: string;
}

export interface BotStoreInput extends SessionRef {
  inputProp: 'name' | 'email' | 'phone' | 'custom';
  inputPropName: string;
  inputPropCode: string;
  value: string;
}

export interface BotTagInput extends SessionRef {
  key: string;
  tagId: number;
  text: string;
}

export interface BotHandoffInput extends SessionRef {
  key: string;
  text: string;
  assigneeType: 'agent' | 'group';
  assignee: number;
}

export interface BotResolveInput extends SessionRef {
  key: string;
  text: string;
  status: 'finished' | 'expired';
}

export interface BotIntegrationInput extends SessionRef {
  script: { url: string; method: string; headers: Record<string, string>; body?: string | null };
  map: { path: string; code: string }[];
}

/** `active: false` tells the workflow its session is over (stopped, replaced, call resolved): it ends. */
export interface BotStepResult {
  active: boolean;
}

type Outcome = { kind: 'inactive' } | { kind: 'stored'; stored: Awaited<ReturnType<typeof storeBotMessage>> } | { kind: 'done' };

/** Custom property upsert (customer_properties_customer_code_unique); the value is capped like the column. */
async function setProperty(trx: Knex.Transaction, workspaceId: number, customerId: number, code: string, label: string, value: string): Promise<void> {
  await trx('customer_properties')
    .insert({ workspaceId, customerId, code, label: (label || code).slice(0, 120), value: value.slice(0, 500) })
    .onConflict(['customer_id', 'code'])
    .merge({ value: value.slice(0, 500), updatedAt: trx.fn.now() });
}

/** A group handoff: the channel's round-robin rule when it rotates this group, else the least busy eligible agent; nobody eligible leaves it waiting in the group. */
async function pickGroupAgent(trx: Knex.Transaction, workspaceId: number, channelId: number, groupId: number, now: Date): Promise<number | null> {
  const rule = (await scoped(AssignmentRule, { workspaceId }, trx).modify('active').modify('forChannel', channelId).forUpdate().first()) as AssignmentRule | undefined;
  if (rule && rule.rules.group === groupId && rule.rules.operator == null) return (await pickAssignee(trx, rule, now)).operatorId;
  const eligible = await eligibleAgents(trx, workspaceId, groupId, null, now);
  if (!eligible.length) return null;
  const load: { operatorId: number; n: string }[] = await trx('customer_platforms')
    .where({ workspaceId, isFinished: false })
    .whereIn('operator_id', eligible)
    .groupBy('operator_id')
    .select('operator_id', trx.raw('count(*) AS n'));
  const busy = new Map(load.map((r) => [r.operatorId, Number(r.n)]));
  return [...eligible].sort((a, b) => (busy.get(a) ?? 0) - (busy.get(b) ?? 0) || a - b)[0];
}

/**
 * The bot session's activities (workflows/bots/botSession.ts), all keyed so a retry repeats nothing: a
 * message's idempotency key finds the stored row; property writes and tags are upserts; ending a session
 * only changes an active row.
 */
export function botActivities(activityDeps: ActivityDeps, options: Partial<BotActivityOptions> = {}) {
  const o = { ...DEFAULT_BOT_ACTIVITY_OPTIONS, ...options };
  // Resolved on use, so processes that never run a bot need no config here.
  const deps: BotActivityDeps = {
    ...activityDeps,
    get config() {
      return withConfig(activityDeps).config;
    },
  };

  /** Stores (once) and delivers a bot text inside `work`'s transaction, after `work` did its own writes. */
  async function withText(ref: SessionRef, key: string | null, text: string, work?: (trx: Knex.Transaction, locked: NonNullable<Awaited<ReturnType<typeof lockLiveSession>>>) => Promise<void>): Promise<Outcome> {
    const outcome = await deps.knex.transaction(async (trx): Promise<Outcome> => {
      const locked = await lockLiveSession(trx, ref);
      if (!locked) {
        // A retry after the session ended in an earlier attempt: the message stored then is still owed to the channel.
        const earlier = key ? await findKeyedMessage(trx, ref.conversationId, key) : undefined;
        return earlier ? { kind: 'stored', stored: earlier } : { kind: 'inactive' };
      }
      if (work) await work(trx, locked);
      if (!key || !text.trim()) return { kind: 'done' };
      const earlier = await findKeyedMessage(trx, ref.conversationId, key);
      return { kind: 'stored', stored: earlier ?? (await storeBotMessage(trx, locked, key, text.trim())) };
    });
    if (outcome.kind === 'stored') await publishAndDeliver(deps, ref, outcome.stored);
    return outcome;
  }

  return {
    /** Sends one bot message (message, prompts, invalid-answer texts, integration text). */
    async botSend(input: BotSendInput): Promise<BotStepResult & { messageId: number }> {
      const stored = await findKeyedMessage(deps.knex, input.conversationId, input.key);
      if (stored) {
        await publishAndDeliver(deps, input, stored);
        return { active: true, messageId: stored.messageId };
      }
      const outcome = await withText(input, input.key, input.text);
      return { active: outcome.kind !== 'inactive', messageId: outcome.kind === 'stored' ? outcome.stored.messageId : 0 };
    },

    /** Stores an input's valid answer: the contact's name (then "registered"), e-mail, phone or a custom property. */
    async botStoreInput(input: BotStoreInput): Promise<BotStepResult> {
      const outcome = await withText(input, null, '', async (trx, { cp }) => {
        if (input.inputProp === 'custom') return setProperty(trx, input.workspaceId, cp.customerId, input.inputPropCode, input.inputPropName, input.value);
        const patch =
          input.inputProp === 'name'
            ? { name: input.value.slice(0, 255), nameGivenAt: trx.fn.now() }
            : input.inputProp === 'email'
              ? { email: input.value.slice(0, 254) }
              : { phone: input.value.slice(0, 32) };
        await trx('customers').where({ workspaceId: input.workspaceId, id: cp.customerId }).update({ ...patch, updatedAt: trx.fn.now() });
      });
      if (outcome.kind === 'inactive') return { active: false };
      if (input.inputProp !== 'custom') await publishConversationEvent(deps, 'chat.callStatus', input.workspaceId, input.conversationId);
      return { active: true };
    },

    /** Applies a tag to the call (a deleted tag is skipped), then sends the action's text. */
    async botTag(input: BotTagInput): Promise<BotStepResult> {
      let tagged = false;
      const outcome = await withText(input, input.key, input.text, async (trx, { session }) => {
        const label = await trx('labels').where({ workspaceId: input.workspaceId, id: input.tagId }).first('id');
        if (!label) return;
        const rows = await trx('call_labels').insert({ workspaceId: input.workspaceId, callId: session.callId, labelId: input.tagId }).onConflict(['call_id', 'label_id']).ignore().returning('label_id');
        tagged = rows.length > 0;
      });
      if (outcome.kind === 'inactive') return { active: false };
      if (tagged) await publishConversationEvent(deps, 'chat.callStatus', input.workspaceId, input.conversationId);
      return { active: true };
    },

    /** The agent action: its text, then the conversation goes to the agent or group and the session ends 'transferred'. */
    async botHandoff(input: BotHandoffInput): Promise<BotStepResult> {
      let visibleBefore: number[] | undefined;
      const outcome = await withText(input, input.key, input.text, async (trx, { cp, session }) => {
        visibleBefore = await operatorsWhoCanSee(trx, input.workspaceId, cp);
        const now = new Date();
        // byRotation: a group handoff's round-robin pick goes back to the rotation if that agent leaves (redistribute.ts).
        let target: { operatorId: number | null; groupId: number | null; byRotation: boolean };
        if (input.assigneeType === 'agent') {
          const member = await trx('workspace_members').where({ workspaceId: input.workspaceId, operatorId: input.assignee, isActive: true }).first('operator_id');
          target = { operatorId: member ? input.assignee : null, groupId: cp.groupId, byRotation: false };
        } else {
          const group = await trx('groups').where({ workspaceId: input.workspaceId, id: input.assignee }).first('id');
          const picked = group ? await pickGroupAgent(trx, input.workspaceId, cp.channelId, input.assignee, now) : null;
          target = group ? { groupId: input.assignee, operatorId: picked, byRotation: picked !== null } : { operatorId: cp.operatorId, groupId: cp.groupId, byRotation: false };
        }
        await applyAssignment(trx, cp.id, target);
        await finishSession(trx, session.id, 'transferred');
      });
      if (outcome.kind === 'inactive') return { active: false };
      await publishConversationEvent(deps, 'chat.callStatus', input.workspaceId, input.conversationId, { visibleBefore });
      return { active: false };
    },

    /** The resolve action and expiry: the text (or expire message), then the call is finished and the session ends. */
    async botResolve(input: BotResolveInput): Promise<BotStepResult> {
      const outcome = await withText(input, input.key, input.text, async (trx, { cp, session }) => {
        await finishOpenCall(trx, cp.id);
        await trx('customer_platforms').where({ id: cp.id }).update({ isFinished: true, hasNewMessages: false, updatedAt: trx.fn.now() });
        await finishSession(trx, session.id, input.status);
        // The webhook outbox row commits with the resolve; the worker's delivery sweep starts its workflow.
        await recordWebhookEvent(trx, input.workspaceId, 'session:status:changed', (db) => sessionStatusData(db, input.workspaceId, cp.id));
      });
      if (outcome.kind !== 'inactive') await publishConversationEvent(deps, 'chat.callStatus', input.workspaceId, input.conversationId);
      return { active: false };
    },

    /**
     * A session that ends without handing off: its path ran out ('finished') or the flow looped ('failed').
     * The call then goes through auto-assignment, as it would have without a bot.
     */
    async botEnd(input: SessionRef & { status: 'finished' | 'failed' }): Promise<BotStepResult> {
      const ended = await deps.knex.transaction(async (trx) => {
        const locked = await lockLiveSession(trx, input);
        if (!locked) return false;
        await finishSession(trx, locked.session.id, input.status);
        if (locked.cp.operatorId === null && locked.session.callId !== null) {
          await assignNewCall(trx, { workspaceId: input.workspaceId, channelId: locked.cp.channelId, conversationId: locked.cp.id, callId: locked.session.callId });
        }
        return true;
      });
      if (ended) await publishConversationEvent(deps, 'chat.callStatus', input.workspaceId, input.conversationId);
      return { active: false };
    },

    /**
     * The integration action's call through the guarded client: `{{code}}` placeholders take the contact's
     * values; a 2xx JSON answer is mapped into custom properties. ok: false on any error, non-2xx, timeout
     * or an unreadable body the map needed.
     */
    async botIntegration(input: BotIntegrationInput): Promise<BotStepResult & { ok: boolean }> {
      const session = await deps.knex.transaction((trx) => lockActiveSession(trx, input.sessionId));
      if (!session) return { active: false, ok: false };
      const cp = await deps.knex('customer_platforms').where({ workspaceId: input.workspaceId, id: input.conversationId }).first('customer_id');
      const values = await customerValues(deps.knex, input.workspaceId, cp.customerId);
      const s = input.script;
      const headers = Object.fromEntries(Object.entries(s.headers ?? {}).map(([k, v]) => [k, fillPlaceholders(v, values, 'text')]));
      let json: unknown;
      try {
        const res = await guardedFetch(
          fillPlaceholders(s.url, values, 'url'),
          { method: s.method, headers, body: s.body ? fillPlaceholders(s.body, values, 'json') : undefined },
          { timeoutMs: o.integrationTimeoutMs, maxBytes: o.integrationMaxBytes, allowLoopbackForTests: o.allowLoopbackForTests },
        );
        if (res.status < 200 || res.status >= 300) return { active: true, ok: false };
        if (!input.map.length) return { active: true, ok: true };
        json = JSON.parse(res.body.toString('utf8'));
      } catch (err) {
        deps.logger.info({ err, conversationId: input.conversationId }, 'bot integration failed');
        return { active: true, ok: false };
      }
      await deps.knex.transaction(async (trx) => {
        for (const m of input.map) {
          const v = readPath(json, m.path);
          if (v === undefined || v === null || typeof v === 'object') continue;
          await setProperty(trx, input.workspaceId, cp.customerId, m.code, m.code, String(v));
        }
      });
      return { active: true, ok: true };
    },
  };
}
