/**
 * The words the inbox shows for the kanban (docs/kanban.md) — its 'Quadro' button — kept apart from
 * ./texts.ts so the inbox's first paint does not carry the board's texts.
 */
export const kanbanLabels = {
  board: 'Quadro',
  boardHelp: 'Ver as conversas em quadro (kanban)',
};
