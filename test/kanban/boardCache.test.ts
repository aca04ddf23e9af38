import { expect } from 'chai';
import { applyToBoard, columnsFor, guessAfterMove, optimisticMove, removeCard, waitingMs } from '../../ui/src/kanban/board';
import type { Board, BoardColumn } from '../../ui/src/kanban/types';
import type { Conversation } from '../../ui/src/inbox/types';

// The pure half of the board's live updates (ui/src/kanban/board.ts): where a conversation's new state puts
// its card. The e2e test (test/e2e/kanban.test.ts) drives the same code through real moves and events.

const ME = 7;
const at = (minute: number) => new Date(Date.UTC(2026, 10, 29, 12, minute)).toISOString();

function conv(id: number, minute: number, patch: Partial<Conversation> = {}): Conversation {
  return {
    id, callId: id * 10, protocol: id, customerId: id, name: `C${id}`, phone: null, email: null, avatar: null,
    platformId: 4, workspacePlatformId: 1, channelName: 'Site', operatorId: null, groupId: null, botId: null, tags: [], stageId: null,
    isFinished: false, starred: false, hasNewMessages: false, lastMessage: null, lastMessageAt: at(minute), identifier: `v${id}`, createdAt: at(0),
    ...patch,
  };
}

const col = (key: string, cards: Conversation[], more = false, matchCount: number | null = cards.length): BoardColumn => ({ key, name: null, color: null, data: cards, matchCount, nextCursor: more ? 'c' : null });
const keysOf = (board: Board, id: number) => board.columns.filter((c) => c.data.some((x) => x.id === id)).map((c) => c.key);
const ids = (board: Board, key: string) => board.columns.find((c) => c.key === key)!.data.map((c) => c.id);
const tag = (id: number) => ({ id, name: `T${id}`, color: '#000000', textColor: '#ffffff' });

describe('kanban board cache: where a conversation’s new state puts its card', () => {
  const status = (): Board => ({
    groupBy: 'status',
    funnelId: null,
    columns: [col('waiting', [conv(1, 30), conv(2, 20)]), col('active', [conv(3, 25, { operatorId: ME })]), col('resolved', [conv(4, 10, { isFinished: true })], true, 40)],
  });

  it('by status: an assignment moves the card from waiting to in service at its place in the inbox order, counts follow', () => {
    const board = applyToBoard(status(), { segment: 'all', query: '' }, conv(2, 20, { operatorId: 9 }), ME).board;
    expect(ids(board, 'waiting')).to.deep.equal([1]);
    expect(ids(board, 'active')).to.deep.equal([3, 2]);
    expect(board.columns.map((c) => c.matchCount)).to.deep.equal([1, 2, 40]);
  });

  it('by status: a card older than what a column with more pages has loaded is left for its next page, but counted', () => {
    const board = applyToBoard(status(), { segment: 'all', query: '' }, conv(1, 5, { isFinished: true }), ME).board;
    expect(keysOf(board, 1)).to.deep.equal([]);
    expect(board.columns.map((c) => c.matchCount)).to.deep.equal([1, 1, 41]);
  });

  it("follows the board's built-in filter: 'Meus' drops a card taken by someone else; a saved filter or a search asks the server", () => {
    const mine = applyToBoard(status(), { segment: 'me', query: '' }, conv(3, 25, { operatorId: 9 }), ME);
    expect(keysOf(mine.board, 3)).to.deep.equal([]);
    expect(applyToBoard(status(), { segment: '12', query: '' }, conv(99, 40), ME).unknown).to.equal(true);
    expect(applyToBoard(status(), { segment: 'all', query: 'ana' }, conv(99, 40), ME).unknown).to.equal(true);
    // A card already on the board is moved even when the filter cannot be evaluated here.
    const known = applyToBoard(status(), { segment: '12', query: '' }, conv(1, 30, { operatorId: 9 }), ME);
    expect(known.unknown).to.equal(false);
    expect(keysOf(known.board, 1)).to.deep.equal(['active']);
  });

  it('by tag: a card sits in every column of its tags, in "none" without tags; tags the board does not show are ignored', () => {
    const board: Board = { groupBy: 'tag', funnelId: null, columns: [col('none', []), col('5', []), col('6', [])] };
    expect(columnsFor('tag', board, conv(1, 1, { tags: [tag(5), tag(6), tag(8)] }))).to.deep.equal(['5', '6']);
    expect(columnsFor('tag', board, conv(1, 1))).to.deep.equal(['none']);
    const moved = optimisticMove(applyToBoard(board, { segment: 'all', query: '' }, conv(1, 1, { tags: [tag(5), tag(6)] }), ME).board, conv(1, 1), '5', 'none');
    expect(keysOf(moved, 1)).to.deep.equal(['none']);
    const swapped = optimisticMove(applyToBoard(board, { segment: 'all', query: '' }, conv(2, 1, { tags: [tag(5), tag(6)] }), ME).board, conv(2, 1), '5', '6');
    expect(keysOf(swapped, 2)).to.deep.equal(['6']);
  });

  it("by funnel stage: a stage of another funnel is 'Sem etapa'; a resolved card leaves the open board", () => {
    const board: Board = { groupBy: 'stage', funnelId: 1, columns: [col('none', []), col('11', [conv(1, 1, { stageId: 11 })]), col('12', [])] };
    const elsewhere = applyToBoard(board, { segment: 'all', query: '' }, conv(1, 2, { stageId: 99 }), ME).board;
    expect(keysOf(elsewhere, 1)).to.deep.equal(['none']);
    const resolved = applyToBoard(board, { segment: 'all', query: '' }, conv(1, 2, { stageId: 11, isFinished: true }), ME).board;
    expect(keysOf(resolved, 1)).to.deep.equal([]);
    expect(keysOf(removeCard(board, 1), 1)).to.deep.equal([]);
  });

  it('guesses the state a move leaves until the server answers: in service takes it for the caller when nobody has it', () => {
    expect(guessAfterMove('status', conv(1, 1), 'active', ME)).to.include({ operatorId: ME, isFinished: false });
    expect(guessAfterMove('status', conv(1, 1, { operatorId: 3 }), 'active', ME)).to.include({ operatorId: 3 });
    expect(guessAfterMove('status', conv(1, 1, { operatorId: 3, isFinished: true }), 'waiting', ME)).to.include({ operatorId: null, isFinished: false });
    expect(guessAfterMove('stage', conv(1, 1, { stageId: 4 }), 'none', ME)).to.include({ stageId: null });
    expect(guessAfterMove('group', conv(1, 1), '8', ME)).to.include({ groupId: 8 });
  });

  it("waits since the customer's last message while it is the last one and the conversation is open", () => {
    const now = Date.parse(at(40));
    const last = (sender: string, minute: number) => ({ text: 'oi', type: 0, sender, createdAt: at(minute) });
    expect(waitingMs(conv(1, 30, { lastMessage: last('customer', 30) }), now)).to.equal(10 * 60_000);
    expect(waitingMs(conv(1, 30, { lastMessage: last('operator', 30) }), now)).to.equal(undefined);
    expect(waitingMs(conv(1, 30, { lastMessage: last('customer', 30), isFinished: true }), now)).to.equal(undefined);
  });
});
