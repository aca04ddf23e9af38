import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../../deps';
import { errors } from '../../http/errors';
import { findVisitorByToken, type VisitorSession } from '../../auth/visitorSessions';
import { storedConnection, type ChannelInbound } from '../inbound';
import { admitFirstContact, limitVisitor, type ChallengeSolution } from './limits';
import { invalidVisitorSession } from './visitorAuth';
import { findWidgetChannel } from './visitorQueries';
import { widgetSettingsOf } from './widgetSettings';
import { requirePreChat } from './preChat';

/** What the widget's visitor API checks before a visitor's message is taken (POST /api/widget/messages). */
export interface VisitorRequest {
  /** The widget's identifier the message is for. */
  identifier: string;
  /** The visitor's session token (`Authorization: Bearer`), absent on a first contact. */
  token?: string;
  /** A solved first-contact challenge (docs/channels/widget.md "Proof of work"). */
  challenge?: ChallengeSolution;
  ip: string;
  /** Refuses a call from a site outside the widget's allowed sites (siteCheck.ts), given the widget's list. */
  checkSite?: (allowedSites: readonly string[]) => void;
  /** What the pre-chat form gave (a first contact must bring the fields the widget requires). */
  contact?: { name?: string; email?: string; phone?: string };
}

/** A verified visitor: a returning one's session, or a first contact let in for this widget (its visitor is created by the caller). */
export type VerifiedVisitor = { visitor: VisitorSession } | { firstContact: { workspaceId: number; id: number; identifier: string } };

/** A visitor's message as the widget sent it, for a verified visitor. */
export interface VisitorPayload {
  visitor: VisitorSession;
  content: unknown[];
  clientMessageId?: string;
  /** The contact's name to keep (the visitor's, or the first contact's placeholder). */
  name?: string | null;
  /** A first contact's e-mail and phone from the pre-chat form (kept on the new contact only). */
  email?: string;
  phone?: string;
}

/**
 * The widget's inbound half (docs/channels/widget.md). Its entry is the visitor API in this folder
 * (visitorRouter.ts → sendVisitorMessage.ts): `verify` is the visitor's token — one that names a session of
 * this widget, a 401 otherwise (the widget starts over) — or, without a token, the first-contact admission
 * (admitFirstContact: a challenge past the source's free bound or while the channel is under a burst, a
 * refusal past the hard bound); `parse` makes a visitor's message its one message event, its external id
 * namespaced by visitor (a client id never collides with another visitor's; a message without one gets a
 * fresh id). sendVisitorMessage.ts stores what parse answers.
 */
export const widgetInbound: ChannelInbound<VisitorRequest, VerifiedVisitor, VisitorPayload, VisitorPayload, { id: number; workspaceId: number }, AppDeps> = {
  type: 'widget',

  async verify(deps, request) {
    // A returning visitor's token already names its channel: one lookup instead of two (bench: ingest).
    const known = request.token ? await findVisitorByToken(deps.knex, request.token) : undefined;
    if (known && known.channelIdentifier === request.identifier) {
      request.checkSite?.(known.allowedSites ?? []);
      await limitVisitor(deps, 'message', known.visitorId);
      return { visitor: known };
    }
    const channel = await findWidgetChannel(deps.knex, request.identifier);
    if (!channel) throw errors.notFound('Widget não encontrado.');
    const settings = widgetSettingsOf(channel.config);
    request.checkSite?.(settings.allowedSites);
    if (request.token) {
      // The token was looked up above: one that names no session is a 401.
      if (!known) throw invalidVisitorSession();
      // A session of another widget is no session here.
      if (known.channelId !== channel.id) throw errors.authentication('Sessão do visitante inválida para este widget.');
      await limitVisitor(deps, 'message', known.visitorId);
      return { visitor: known };
    }
    // Before the admission, so a visitor who left out a required field spends no first-contact budget.
    requirePreChat(settings.preChat, request.contact ?? {});
    await admitFirstContact(deps, request.ip, channel.id, request.challenge);
    return { firstContact: channel };
  },

  async parse(_deps, payload) {
    const { visitor } = payload;
    return [{ kind: 'message', channel: { id: visitor.channelId, workspaceId: visitor.workspaceId }, externalId: `v:${visitor.visitorId}:${payload.clientMessageId ?? randomUUID()}`, item: payload }];
  },

  status: storedConnection,
};
