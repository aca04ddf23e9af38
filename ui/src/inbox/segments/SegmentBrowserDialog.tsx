import { useState, type DragEvent } from 'react';
import { DeleteConfirm, useItemDeletion } from '../../common/DeleteConfirm';
import { EditDeleteButtons } from '../../common/EditDeleteButtons';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DragIndicator from '@mui/icons-material/DragIndicator';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { failureToasts } from '../../forms/serverErrors';
import { useSession } from '../../providers/session';
import { canManageSegment } from './permissions';
import { SegmentEditorDialog } from './SegmentEditorDialog';
import { SegmentIcon } from './SegmentIcon';
import { useDeleteSegment, useSegments, useSortSegments, useToggleSegmentSubscription } from './useSegments';
import type { Segment } from './types';
import { DialogListStates, ListDialogActions } from '../listDialog';
import { TipIconButton } from '../../common/TipIconButton';

const t = texts.inboxPanels.segments;

function moved(ids: number[], from: number, to: number): number[] {
  const next = [...ids];
  const [id] = next.splice(from, 1);
  next.splice(to, 0, id!);
  return next;
}

/**
 * SPEC §2 filter browser: every visible saved filter with its subscription toggle (SPEC §4), order by
 * drag or the arrow buttons, edit/delete where SPEC §6 allows, and 'new'.
 */
export function SegmentBrowserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const session = useSession();
  const segments = useSegments();
  const toggle = useToggleSegmentSubscription();
  const sort = useSortSegments();
  const deletion = useItemDeletion<Segment>(useDeleteSegment(), texts.inboxPanels.deleted);
  const [editing, setEditing] = useState<Segment | null | undefined>(undefined);
  const [dragFrom, setDragFrom] = useState<number | null>(null);
  const rows = segments.data ?? [];
  const ids = rows.map((s) => s.id);

  const fail = (err: unknown) => {
    for (const message of failureToasts(err)) notify(message, { type: 'error' });
  };
  const reorder = (from: number, to: number) => {
    if (from === to || to < 0 || to >= rows.length) return;
    sort.mutate(moved(ids, from, to), { onError: fail });
  };

  return (
    <>
      <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="segment-browser-title" aria-describedby="segment-browser-help">
        <DialogTitle id="segment-browser-title">{t.browserTitle}</DialogTitle>
        <DialogContent dividers sx={{ px: 0 }}>
          <DialogContentText id="segment-browser-help" sx={{ px: 3, pb: 1 }}>
            {t.browserHelp}
          </DialogContentText>
          <DialogListStates query={segments} loadError={t.loadError} empty={rows.length === 0} emptyText={t.empty}>
            <Box component="ul" aria-label={t.browserTitle} sx={{ listStyle: 'none', m: 0, p: 0 }}>
              {rows.map((segment, index) => {
                const manage = canManageSegment(segment, session);
                return (
                  <Box
                    component="li"
                    key={segment.id}
                    draggable
                    onDragStart={(e: DragEvent) => {
                      setDragFrom(index);
                      e.dataTransfer.effectAllowed = 'move';
                    }}
                    onDragOver={(e: DragEvent) => {
                      if (dragFrom !== null) e.preventDefault();
                    }}
                    onDrop={(e: DragEvent) => {
                      e.preventDefault();
                      if (dragFrom !== null) reorder(dragFrom, index);
                      setDragFrom(null);
                    }}
                    onDragEnd={() => setDragFrom(null)}
                    data-testid="segment-row"
                    sx={{
                      display: 'flex',
                      alignItems: 'center',
                      gap: 1,
                      px: 2,
                      py: 0.5,
                      borderBottom: 1,
                      borderColor: 'divider',
                      opacity: dragFrom === index ? 0.5 : 1,
                      '&:hover': { bgcolor: 'action.hover' },
                    }}
                  >
                    <DragIndicator fontSize="small" sx={{ cursor: 'grab', color: 'text.disabled' }} aria-label={format(t.drag, { name: segment.name })} />
                    <Switch
                      checked={segment.subscribed}
                      onChange={(e) => toggle.mutate({ id: segment.id, subscribed: e.target.checked }, { onError: fail })}
                      slotProps={{ input: { 'aria-label': format(t.subscribe, { name: segment.name }) } }}
                    />
                    <SegmentIcon icon={segment.icon} />
                    <Typography sx={{ flex: 1, minWidth: 0 }} noWrap title={segment.name}>
                      {segment.name}
                    </Typography>
                    <Chip size="small" variant="outlined" label={segment.isPublic ? t.public : t.private} />
                    <TipIconButton title={format(t.moveUp, { name: segment.name })} size="small" disabled={index === 0 || sort.isPending} onClick={() => reorder(index, index - 1)}>
                      <ArrowUpward fontSize="small" />
                    </TipIconButton>
                    <TipIconButton title={format(t.moveDown, { name: segment.name })} size="small" disabled={index === rows.length - 1 || sort.isPending} onClick={() => reorder(index, index + 1)}>
                      <ArrowDownward fontSize="small" />
                    </TipIconButton>
                    {manage ? (
                      <EditDeleteButtons editLabel={format(t.editSegment, { name: segment.name })} deleteLabel={format(t.deleteSegment, { name: segment.name })} onEdit={() => setEditing(segment)} onDelete={() => deletion.ask(segment)} />
                    ) : (
                      // Keeps the rows aligned when a filter is not the operator's to change.
                      <Box sx={{ width: 68 }} />
                    )}
                  </Box>
                );
              })}
            </Box>
          </DialogListStates>
        </DialogContent>
        <ListDialogActions newLabel={t.newSegment} onNew={() => setEditing(null)} onClose={onClose} />
      </Dialog>
      <SegmentEditorDialog open={editing !== undefined} segment={editing} onClose={() => setEditing(undefined)} />
      <DeleteConfirm {...deletion.confirmProps} title={format(t.deleteTitle, { name: deletion.item?.name ?? '' })} />
    </>
  );
}
