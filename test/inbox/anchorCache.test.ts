import { expect } from 'chai';
import {
  anchoredData,
  dropMessage,
  heldMessages,
  isAnchored,
  messageRows,
  newestData,
  patchMessage,
  releaseHeld,
  upsertMessage,
  type MessageData,
  type StoredMessagePage,
} from '../../ui/src/inbox/cache';
import type { Message } from '../../ui/src/inbox/types';

/** The message cache of a conversation opened on an older message (docs/search.md "Opening a hit"). */

const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 12, minute)).toISOString();

function msg(id: number, minute: number, patch: Partial<Message> = {}): Message {
  return {
    id, externalId: null, content: [{ insert: `m${id}\n` }], text: `m${id}`, type: 0, status: 2, createdAt: at(minute), operatorId: null, Operator: null,
    sender: 'customer', avatar: null, isDeleted: false, isMedia: false, replyTo: null, customerPlatformId: 1, ...patch,
  };
}

/** A page of the given ids (newest first), minute = id. */
const page = (ids: number[], extra: Partial<StoredMessagePage> = {}): StoredMessagePage => ({
  data: ids.map((id) => msg(id, id)),
  matchCount: 100,
  hasMore: true,
  oldestId: ids[ids.length - 1] ?? null,
  newestId: ids[0] ?? null,
  ...extra,
});
const rowIds = (data: MessageData) => messageRows(data).map((m) => m.id);

describe('inbox cache of an anchored conversation (pure)', () => {
  it('holds a new message while newer pages are not loaded, instead of showing it after the anchored window', () => {
    const data = anchoredData(page([25, 24, 23], { hasNewer: true }), { around: 24 }, undefined);
    expect(isAnchored(data)).to.equal(true);
    const live = upsertMessage(data, msg(90, 90));
    expect(rowIds(live)).to.deep.equal([25, 24, 23]);
    expect(heldMessages(live).map((m) => m.id)).to.deep.equal([90]);
    // A message already in the window is still replaced where it is.
    expect(messageRows(upsertMessage(live, { ...msg(24, 24), status: 4 })).find((m) => m.id === 24)?.status).to.equal(4);
    // Status patches and deletions reach the held copy too.
    expect(heldMessages(patchMessage(live, 90, { status: 4 }))[0]?.status).to.equal(4);
    expect(heldMessages(dropMessage(live, 90))).to.deep.equal([]);

    // Not anchored (the newest page is loaded): appended as before, nothing held.
    const normal: MessageData = { pages: [page([25, 24, 23], { hasNewer: false })], pageParams: [undefined] };
    const appended = upsertMessage(normal, msg(90, 90));
    expect(rowIds(appended)).to.deep.equal([90, 25, 24, 23]);
    expect(heldMessages(appended)).to.deep.equal([]);
  });

  it('our own send while anchored is held, and its stored copy replaces it there', () => {
    const data = anchoredData(page([25, 24], { hasNewer: true }), { around: 24 }, undefined);
    const temp = msg(-1, 95, { sender: 'operator', operatorId: 7, pending: true, text: 'oi', content: [{ insert: 'oi\n' }] });
    const pending = upsertMessage(data, temp);
    expect(heldMessages(pending).map((m) => m.id)).to.deep.equal([-1]);
    const stored = upsertMessage(pending, { ...temp, id: 96, pending: false });
    expect(heldMessages(stored).map((m) => m.id)).to.deep.equal([96]);
  });

  it('when scrolling down reaches the newest page, held messages take their places once', () => {
    let data = anchoredData(page([25, 24], { hasNewer: true }), { around: 24 }, undefined);
    data = upsertMessage(data, msg(40, 40));
    data = upsertMessage(data, msg(41, 41));
    // The newest page (an `after` page that was not full) arrives with 40 but not 41 (sent after it was read).
    data = { pages: [page([40, 30, 26], { hasNewer: false }), ...data.pages], pageParams: [{ after: 25 }, ...data.pageParams] };
    expect(isAnchored(data)).to.equal(false);
    const released = releaseHeld(data);
    expect(rowIds(released)).to.deep.equal([41, 40, 30, 26, 25, 24]);
    expect(heldMessages(released)).to.deep.equal([]);
    expect(releaseHeld(released)).to.equal(released);
    // Still anchored: nothing moves.
    const still = upsertMessage(anchoredData(page([25, 24], { hasNewer: true }), { around: 24 }, undefined), msg(40, 40));
    expect(releaseHeld(still)).to.equal(still);
  });

  it('jumping to the newest keeps what was held and our sends on their way, without duplicates', () => {
    let data = anchoredData(page([25, 24], { hasNewer: true }), { around: 24 }, undefined);
    data = upsertMessage(data, msg(40, 40));
    data = upsertMessage(data, msg(-1, 99, { sender: 'operator', pending: true, text: 'a caminho', content: [{ insert: 'a caminho\n' }] }));
    const newest = newestData(page([40, 39, 38], { hasMore: true }), data);
    expect(isAnchored(newest)).to.equal(false);
    expect(newest.pageParams).to.deep.equal([undefined]);
    expect(rowIds(newest)).to.deep.equal([-1, 40, 39, 38]);
    // A pending send of the normal view carried into an anchored window is held there.
    const normal: MessageData = { pages: [page([50, 49], { hasNewer: false })], pageParams: [undefined] };
    const sending = upsertMessage(normal, msg(-2, 99, { sender: 'operator', pending: true }));
    const anchored = anchoredData(page([25, 24], { hasNewer: true }), { around: 24 }, sending);
    expect(rowIds(anchored)).to.deep.equal([25, 24]);
    expect(heldMessages(anchored).map((m) => m.id)).to.deep.equal([-2]);
  });
});
