import { memo, useState, type DragEvent, type KeyboardEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { format } from '../i18n/format';
import type { Conversation } from '../inbox/types';
import type { BoardColumn } from './kanbanApi';
import { KanbanCard } from './KanbanCard';
import { kanbanTexts } from './texts';

const t = kanbanTexts;

/** "12 conversas", "mais de 10.000 conversas" (the server caps its counts), or the loaded cards with '+' when not counted. */
export function countLabel(col: BoardColumn): string {
  if (col.matchCount === null) {
    const n = col.data.length;
    return col.nextCursor ? format(t.count.more, { count: n }) : n === 1 ? t.count.one : format(t.count.many, { count: n });
  }
  return col.matchCount === 1 ? t.count.one : format(t.count.many, { count: col.matchCount.toLocaleString('pt-BR') });
}

export function countBadge(col: BoardColumn): string {
  if (col.matchCount === null) return col.nextCursor ? `${col.data.length}+` : String(col.data.length);
  return col.matchCount >= 10_000 ? '10 mil+' : col.matchCount.toLocaleString('pt-BR');
}

interface Props {
  column: BoardColumn;
  title: string;
  /** The column a card is being dragged from (null: no drag), to show where it may go. */
  dragFrom: string | null;
  openId: number | undefined;
  now: number;
  agentNames: Map<number, string>;
  width: number | string;
  onDrop(to: string): void;
  onLoadMore(column: string): Promise<void>;
  onOpen(id: number): void;
  onMoveMenu(anchor: HTMLElement, conversation: Conversation, from: string): void;
  onCardKeyDown(e: KeyboardEvent<HTMLElement>, conversation: Conversation, column: string): void;
  onDragStart(conversation: Conversation, column: string): void;
  onDragEnd(): void;
}

/** One column: its name and count, its cards in the inbox order, 'Carregar mais' while it has more; a drop target. */
export const KanbanColumn = memo(function KanbanColumn(props: Props) {
  const { column: col, title, dragFrom, width } = props;
  const [over, setOver] = useState(false);
  const [loading, setLoading] = useState(false);
  const target = dragFrom !== null && dragFrom !== col.key;
  const headingId = `kanban-column-${col.key}`;
  const allowDrop = (e: DragEvent) => {
    if (!target) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'move';
    if (!over) setOver(true);
  };
  return (
    <Box
      component="section"
      aria-labelledby={headingId}
      data-kanban-column={col.key}
      onDragOver={allowDrop}
      onDragEnter={allowDrop}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        if (target) props.onDrop(col.key);
      }}
      sx={{
        // Holds its visually hidden texts: absolutely placed against the page, they would widen it past the board.
        position: 'relative',
        width,
        flexShrink: 0,
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        maxHeight: '100%',
        bgcolor: over ? 'action.selected' : 'action.hover',
        borderRadius: 2,
        border: 2,
        borderColor: over ? 'primary.main' : target ? 'divider' : 'transparent',
        borderStyle: target ? 'dashed' : 'solid',
        scrollSnapAlign: 'start',
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, px: 1.5, pt: 1.25, pb: 1 }}>
        <Box component="span" aria-hidden sx={{ width: 10, height: 10, borderRadius: '50%', bgcolor: col.color ?? 'text.disabled', flexShrink: 0 }} />
        <Typography id={headingId} component="h2" noWrap sx={{ fontSize: 14, fontWeight: 700, flex: 1, minWidth: 0 }} title={title}>
          {title}
          <Box component="span" sx={visuallyHidden}>
            {`, ${countLabel(col)}`}
          </Box>
        </Typography>
        <Box component="span" aria-hidden data-count sx={{ fontSize: 12, fontWeight: 600, color: 'text.secondary', bgcolor: 'background.paper', borderRadius: 10, px: 1, lineHeight: '20px' }}>
          {countBadge(col)}
        </Box>
      </Box>
      {over ? (
        <Box sx={visuallyHidden} aria-live="polite">
          {format(t.dropHere, { column: title })}
        </Box>
      ) : null}
      <Box role="list" aria-labelledby={headingId} sx={{ flex: 1, minHeight: 48, overflowY: 'auto', px: 1, pb: 1, display: 'flex', flexDirection: 'column', gap: 1 }}>
        {col.data.length === 0 ? (
          <Typography sx={{ fontSize: 13, color: 'text.secondary', textAlign: 'center', py: 2 }}>{t.empty}</Typography>
        ) : (
          col.data.map((c) => (
            <Box role="listitem" key={c.id}>
              <KanbanCard
                conversation={c}
                column={col.key}
                assignee={c.operatorId === null ? undefined : props.agentNames.get(c.operatorId)}
                now={props.now}
                open={props.openId === c.id}
                onOpen={props.onOpen}
                onMoveMenu={props.onMoveMenu}
                onKeyDown={props.onCardKeyDown}
                onDragStart={props.onDragStart}
                onDragEnd={props.onDragEnd}
              />
            </Box>
          ))
        )}
        {col.nextCursor ? (
          <Button
            size="small"
            disabled={loading}
            onClick={() => {
              setLoading(true);
              void props.onLoadMore(col.key).finally(() => setLoading(false));
            }}
          >
            {loading ? t.loading : t.loadMore}
          </Button>
        ) : null}
      </Box>
    </Box>
  );
});

const visuallyHidden = { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const;
