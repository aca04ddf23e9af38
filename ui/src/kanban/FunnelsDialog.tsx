import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import Add from '@mui/icons-material/Add';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import { DeleteConfirm } from '../common/DeleteConfirm';
import { errorDescriptions, isHttpError } from '../providers/httpClient';
import { format } from '../i18n/format';
import { MAX_STAGES } from '../../../api/kanban/schema';
import { createFunnel, deleteFunnel, updateFunnel, type Funnel, type FunnelInput } from './kanbanApi';
import { kanbanKeys, useFunnels } from './queries';
import { kanbanTexts } from './texts';

const t = kanbanTexts.funnels;

/** Colours offered to new stages, in turn. */
const STAGE_COLORS = ['#2E90FA', '#F79009', '#7A5AF8', '#12B76A', '#F04438', '#0BA5EC', '#EE46BC', '#667085'];

interface Draft {
  id: number | null;
  name: string;
  stages: { key: string; id: number | null; name: string; color: string }[];
}

let keySeq = 0;
const newKey = () => `s${++keySeq}`;

function draftOf(funnel: Funnel | null): Draft {
  if (!funnel) return { id: null, name: '', stages: t.defaultStages.map((name, i) => ({ key: newKey(), id: null, name, color: STAGE_COLORS[i % STAGE_COLORS.length]! })) };
  return { id: funnel.id, name: funnel.name, stages: funnel.stages.map((s) => ({ key: newKey(), id: s.id, name: s.name, color: s.color })) };
}

/** The server's field errors by key (`name`, `stages`, `stages.1.name` …). */
function fieldErrors(error: unknown): Record<string, string> {
  return isHttpError(error) ? error.fieldErrors : {};
}

/**
 * 'Funis' (level 6+, docs/kanban.md): the workspace's funnels, each with its stages in order and their
 * colours. Saving sends the whole list: stages left out are deleted and their conversations leave the funnel.
 */
export function FunnelsDialog({ open, onClose, initial }: { open: boolean; onClose: (saved?: Funnel) => void; initial?: number | null }) {
  const qc = useQueryClient();
  const notify = useNotify();
  const phone = useMediaQuery('(max-width:600px)');
  const { data: funnels = [] } = useFunnels();
  const [draft, setDraft] = useState<Draft>(() => draftOf(null));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [confirm, setConfirm] = useState(false);

  // Opens on the funnel the board shows (or a new one when there is none).
  useEffect(() => {
    if (!open) return;
    const start = funnels.find((f) => f.id === initial) ?? funnels[0] ?? null;
    setDraft(draftOf(start));
    setErrors({});
    // Only when opened: a refetch of the list must not undo what is being typed.
  }, [open]);

  const saved = funnels.find((f) => f.id === draft.id);
  const removed = saved ? saved.stages.filter((s) => !draft.stages.some((d) => d.id === s.id)).length : 0;
  const setStage = (key: string, patch: Partial<Draft['stages'][number]>) => setDraft((d) => ({ ...d, stages: d.stages.map((s) => (s.key === key ? { ...s, ...patch } : s)) }));
  const moveStage = (i: number, by: number) =>
    setDraft((d) => {
      const stages = [...d.stages];
      const [s] = stages.splice(i, 1);
      stages.splice(i + by, 0, s!);
      return { ...d, stages };
    });

  const save = async () => {
    setSaving(true);
    setErrors({});
    const body: FunnelInput = { name: draft.name, stages: draft.stages.map((s) => ({ ...(s.id ? { id: s.id } : {}), name: s.name, color: s.color })) };
    try {
      const funnel = draft.id ? await updateFunnel(draft.id, body) : await createFunnel(body);
      notify(draft.id ? t.updated : t.created, { type: 'success' });
      await qc.invalidateQueries({ queryKey: kanbanKeys.funnels() });
      void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'kanban' && q.queryKey[1] === 'board' && q.queryKey[2] === 'stage' });
      onClose(funnel);
    } catch (error) {
      setErrors(fieldErrors(error));
      for (const text of errorDescriptions(error)) notify(text, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!draft.id) return;
    setConfirm(false);
    try {
      await deleteFunnel(draft.id);
      notify(t.deleted, { type: 'success' });
      await qc.invalidateQueries({ queryKey: kanbanKeys.funnels() });
      setDraft(draftOf(funnels.find((f) => f.id !== draft.id) ?? null));
    } catch (error) {
      for (const text of errorDescriptions(error)) notify(text, { type: 'error' });
    }
  };

  return (
    <Dialog open={open} onClose={() => onClose()} fullScreen={phone} fullWidth maxWidth="md" aria-labelledby="funnels-title">
      <DialogTitle id="funnels-title">{t.title}</DialogTitle>
      <DialogContent dividers sx={{ display: 'flex', flexDirection: phone ? 'column' : 'row', gap: 2 }}>
        <Box component="nav" aria-label={t.list} sx={{ width: phone ? 'auto' : 220, flexShrink: 0 }}>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            {t.intro}
          </Typography>
          <List dense disablePadding>
            {funnels.map((f) => (
              <ListItemButton key={f.id} selected={draft.id === f.id} onClick={() => setDraft(draftOf(f))}>
                <ListItemText primary={f.name} secondary={f.stages.map((s) => s.name).join(' › ')} secondaryTypographyProps={{ noWrap: true }} />
              </ListItemButton>
            ))}
            {funnels.length === 0 ? <Typography sx={{ fontSize: 13, color: 'text.secondary', py: 1 }}>{t.none}</Typography> : null}
          </List>
          <Button startIcon={<Add />} size="small" onClick={() => setDraft(draftOf(null))} sx={{ mt: 1 }}>
            {t.new}
          </Button>
        </Box>
        <Box component="form" id="funnel-form" onSubmit={(e) => { e.preventDefault(); void save(); }} sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: 1.5 }}>
          <TextField label={t.name} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={Boolean(errors.name)} helperText={errors.name} size="small" required inputProps={{ maxLength: 80 }} />
          <Typography component="h3" variant="subtitle2">
            {t.stages}
          </Typography>
          <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1 }}>
            {draft.stages.map((s, i) => (
              <Box component="li" key={s.key} sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
                <Box
                  component="input"
                  type="color"
                  value={s.color}
                  aria-label={`${t.stageColor} ${i + 1}`}
                  onChange={(e) => setStage(s.key, { color: (e.target as HTMLInputElement).value.toUpperCase() })}
                  sx={{ width: 40, height: 40, p: 0.25, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'transparent', flexShrink: 0 }}
                />
                <TextField
                  label={`${t.stageName} ${i + 1}`}
                  value={s.name}
                  onChange={(e) => setStage(s.key, { name: e.target.value })}
                  error={Boolean(errors[`stages.${i}.name`])}
                  helperText={errors[`stages.${i}.name`] ?? errors[`stages.${i}.color`]}
                  size="small"
                  required
                  inputProps={{ maxLength: 60 }}
                  sx={{ flex: 1 }}
                />
                <IconButton aria-label={`${t.up}: ${s.name}`} disabled={i === 0} onClick={() => moveStage(i, -1)} size="small" sx={{ mt: 0.5 }}>
                  <ArrowUpward fontSize="small" />
                </IconButton>
                <IconButton aria-label={`${t.down}: ${s.name}`} disabled={i === draft.stages.length - 1} onClick={() => moveStage(i, 1)} size="small" sx={{ mt: 0.5 }}>
                  <ArrowDownward fontSize="small" />
                </IconButton>
                <IconButton aria-label={`${t.removeStage}: ${s.name}`} disabled={draft.stages.length === 1} onClick={() => setDraft({ ...draft, stages: draft.stages.filter((x) => x.key !== s.key) })} size="small" sx={{ mt: 0.5 }}>
                  <DeleteOutline fontSize="small" />
                </IconButton>
              </Box>
            ))}
          </Box>
          {errors.stages ? (
            <Typography role="alert" sx={{ fontSize: 13, color: 'error.main' }}>
              {errors.stages}
            </Typography>
          ) : null}
          <Box>
            <Button
              startIcon={<Add />}
              size="small"
              disabled={draft.stages.length >= MAX_STAGES}
              onClick={() => setDraft({ ...draft, stages: [...draft.stages, { key: newKey(), id: null, name: '', color: STAGE_COLORS[draft.stages.length % STAGE_COLORS.length]! }] })}
            >
              {t.addStage}
            </Button>
          </Box>
          {removed > 0 ? (
            <Typography role="status" sx={{ fontSize: 13, color: 'warning.dark' }}>
              {t.removeWarning}
            </Typography>
          ) : null}
        </Box>
      </DialogContent>
      <DialogActions>
        {draft.id ? (
          <Button color="error" onClick={() => setConfirm(true)} sx={{ mr: 'auto' }}>
            {t.delete}
          </Button>
        ) : null}
        <Button onClick={() => onClose()}>{t.close}</Button>
        <Button type="submit" form="funnel-form" variant="contained" disabled={saving}>
          {t.save}
        </Button>
      </DialogActions>
      <DeleteConfirm isOpen={confirm} title={format(t.deleteConfirm, { name: draft.name })} onConfirm={() => void remove()} onClose={() => setConfirm(false)} />
    </Dialog>
  );
}
