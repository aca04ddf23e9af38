import { expect } from 'chai';
import {
  applyToCounter,
  belongsTo,
  listRows,
  messageRows,
  patchMessage,
  placeInList,
  removeFromList,
  upsertMessage,
  type ListData,
  type MessageData,
} from '../../ui/src/inbox/cache';
import { linkify, fileHref } from '../../ui/src/inbox/conversation/content';
import type { Conversation, Counter, Message } from '../../ui/src/inbox/types';

// The pure half of the inbox's live updates (ui/src/inbox/cache.ts): no browser needed, so it runs in
// milliseconds beside the browser tests that drive the same code through real events.

const ME = 7;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 12, minute)).toISOString();

function conv(id: number, minute: number, patch: Partial<Conversation> = {}): Conversation {
  return {
    id, callId: id * 10, protocol: id, customerId: id, name: `C${id}`, phone: null, email: null, avatar: null,
    platformId: 4, workspacePlatformId: 1, channelName: 'Site', operatorId: null, groupId: null, botId: null, tags: [],
    isFinished: false, starred: false, hasNewMessages: false, lastMessage: null, lastMessageAt: at(minute), identifier: `v${id}`, createdAt: at(0),
    ...patch,
  };
}

const pages = (...groups: { rows: Conversation[]; nextCursor: string | null }[]): ListData => ({
  pages: groups.map((g, i) => ({ data: g.rows, matchCount: i === 0 ? 99 : 0, totalCount: 99, nextCursor: g.nextCursor })),
  pageParams: groups.map((_, i) => (i === 0 ? null : `c${i}`)),
});
const ids = (data: ListData) => listRows(data).map((c) => c.id);

function msg(id: number, minute: number, patch: Partial<Message> = {}): Message {
  return {
    id, externalId: null, content: [{ insert: `m${id}\n` }], text: `m${id}`, type: 0, status: 2, createdAt: at(minute), operatorId: null, Operator: null,
    sender: 'customer', avatar: null, isDeleted: false, isMedia: false, replyTo: null, customerPlatformId: 1, ...patch,
  };
}

describe('inbox cache updates (pure)', () => {
  it('decides built-in segment membership from the conversation state and leaves custom segments to the server', () => {
    expect(belongsTo('all', conv(1, 1), ME)).to.equal(true);
    expect(belongsTo('all', conv(1, 1, { isFinished: true }), ME)).to.equal(false);
    expect(belongsTo('archived', conv(1, 1, { isFinished: true }), ME)).to.equal(true);
    expect(belongsTo('me', conv(1, 1, { operatorId: ME }), ME)).to.equal(true);
    expect(belongsTo('me', conv(1, 1, { operatorId: 8 }), ME)).to.equal(false);
    expect(belongsTo('starred', conv(1, 1, { starred: true, isFinished: true }), ME)).to.equal(true);
    expect(belongsTo('42', conv(1, 1), ME)).to.equal(undefined);
  });

  it('moves a conversation with a new message to its place by lastMessageAt then id, without duplicates', () => {
    const data = pages({ rows: [conv(3, 30), conv(2, 20)], nextCursor: 'x' }, { rows: [conv(1, 10)], nextCursor: null });
    expect(ids(placeInList(data, conv(1, 40)))).to.deep.equal([1, 3, 2]);
    expect(ids(placeInList(data, conv(4, 20)))).to.deep.equal([3, 4, 2, 1]);
    expect(ids(placeInList(data, conv(2, 25)))).to.deep.equal([3, 2, 1]);
    expect(ids(removeFromList(data, 3))).to.deep.equal([2, 1]);
  });

  it('leaves out a row that sorts past the loaded pages while more pages exist (the next page brings it)', () => {
    const more = pages({ rows: [conv(3, 30), conv(2, 20)], nextCursor: 'x' });
    expect(ids(placeInList(more, conv(9, 5)))).to.deep.equal([3, 2]);
    const last = pages({ rows: [conv(3, 30), conv(2, 20)], nextCursor: null });
    expect(ids(placeInList(last, conv(9, 5)))).to.deep.equal([3, 2, 9]);
  });

  it('moves the counters by the difference between the old and the new state', () => {
    const counter: Counter = { all: 2, starred: 1, me: 1, archived: 0, segments: {}, pending: 3 };
    // A new unassigned conversation with a message.
    expect(applyToCounter(counter, null, conv(1, 1, { hasNewMessages: true }), ME)).to.include({ all: 3, me: 1, starred: 1, pending: 4 });
    // Opened (read) and taken by me.
    const mine = applyToCounter(counter, conv(1, 1, { hasNewMessages: true, starred: true }), conv(1, 1, { operatorId: ME }), ME);
    expect(mine).to.include({ all: 1, starred: 0, me: 1, pending: 2 });
    // Resolved while unread, then gone from view: never below zero.
    expect(applyToCounter({ ...counter, all: 0 }, conv(1, 1, { hasNewMessages: true }), null, ME)).to.include({ all: 0, pending: 2 });
  });

  it("replaces our optimistic copy with the stored message, whichever of the answer or the event comes first", () => {
    const data: MessageData = { pages: [{ data: [msg(2, 2), msg(1, 1)], matchCount: 2, hasMore: false, oldestId: 1 }], pageParams: [undefined] };
    const pending = msg(-1, 3, { sender: 'operator', operatorId: ME, pending: true, text: 'Olá', status: 1 });
    const withPending = upsertMessage(data, pending);
    expect(messageRows(withPending).map((m) => m.id)).to.deep.equal([-1, 2, 1]);
    const stored = msg(3, 3, { sender: 'operator', operatorId: ME, text: 'Olá\n' });
    const settled = upsertMessage(withPending, stored);
    expect(messageRows(settled).map((m) => m.id)).to.deep.equal([3, 2, 1]);
    // The same event twice changes nothing.
    expect(messageRows(upsertMessage(settled, { ...stored, status: 3 })).map((m) => [m.id, m.status])).to.deep.equal([[3, 3], [2, 2], [1, 2]]);
  });

  it('keeps a failure the live event brought when the answer of the send, read while it was pending, comes after it (issue 13)', () => {
    const data: MessageData = { pages: [{ data: [msg(1, 1)], matchCount: 1, hasMore: false, oldestId: 1 }], pageParams: [undefined] };
    const pending = msg(2, 2, { sender: 'operator', operatorId: ME, status: 1, deliveryState: 'pending', deliveryError: null });
    const reason = 'O contato bloqueou o bot no Telegram; a mensagem não foi entregue.';
    // chat.newMessage (pending), then chat.messageStatus (failed, applied as a patch), then the POST answer.
    const live = upsertMessage(data, pending);
    const patched = patchMessage(live, 2, { deliveryState: 'failed', deliveryError: reason });
    const answered = messageRows(upsertMessage(patched, pending))[0];
    expect(answered).to.include({ id: 2, deliveryState: 'failed', deliveryError: reason });
    // Status only moves forward too; a copy that got further (sent, read by the customer) still replaces it.
    const sent = messageRows(upsertMessage(upsertMessage(live, { ...pending, status: 3, deliveryState: 'sent' }), pending))[0];
    expect(sent).to.include({ status: 3, deliveryState: 'sent' });
    expect(messageRows(upsertMessage(live, { ...pending, deliveryState: 'failed', deliveryError: reason }))[0]).to.include({ deliveryState: 'failed', deliveryError: reason });
  });

  it('makes only http(s) addresses clickable and keeps trailing punctuation out of them', () => {
    expect(linkify('veja https://exemplo.com.br/a?b=1. ou javascript:alert(1)')).to.deep.equal([
      { kind: 'text', text: 'veja ' },
      { kind: 'link', text: 'https://exemplo.com.br/a?b=1', href: 'https://exemplo.com.br/a?b=1' },
      { kind: 'text', text: '. ou javascript:alert(1)' },
    ]);
    expect(linkify('(https://pt.wikipedia.org/wiki/Balc%C3%A3o_(m%C3%B3vel))')[1]).to.include({ kind: 'link', text: 'https://pt.wikipedia.org/wiki/Balc%C3%A3o_(m%C3%B3vel)' });
  });

  it('serves signed downloads from our own origin and refuses other schemes', () => {
    expect(fileHref('http://localhost:3000/api/assets/download/k1?exp=1&sig=s')).to.equal('/api/assets/download/k1?exp=1&sig=s');
    expect(fileHref('https://cdn.exemplo.com/a.png')).to.equal('https://cdn.exemplo.com/a.png');
    expect(fileHref('javascript:alert(1)')).to.equal(undefined);
    expect(fileHref('//evil.example/x')).to.equal(undefined);
  });
});
