import { useEffect, useMemo, useState } from 'react';
import { DeleteConfirm, useItemDeletion } from '../../common/DeleteConfirm';
import { EditDeleteButtons } from '../../common/EditDeleteButtons';
import { Controller, useForm } from 'react-hook-form';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import InputAdornment from '@mui/material/InputAdornment';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Search from '@mui/icons-material/Search';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { FormTextField } from '../../forms/FormTextField';
import { zodResolver } from '../../forms/zodResolver';
import { applyServerErrors, failureToasts } from '../../forms/serverErrors';
import { QuickPhraseSchema } from '../../../../api/quickPhrases/schema';
import { normalizeTag, previewOf } from './tag';
import { useDeleteQuickPhrase, useQuickPhrasesQuery, useSaveQuickPhrase, type QuickPhrase } from './useQuickPhrases';
import { DialogListStates, ListDialogActions } from '../listDialog';

const t = texts.inboxPanels.quickPhrases;

interface PhraseForm {
  tag: string;
  phrase: string;
  privacy: 'public' | 'private' | '';
}

const FIELDS = ['tag', 'phrase', 'privacy'] as const;

/**
 * SPEC §2 quick-phrase modal inside the inbox: searchable list, create/edit (tag normalised as typed),
 * delete with confirmation.
 */
export function QuickPhraseDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  // undefined: the list; null: a new phrase; a phrase: editing it.
  const [editing, setEditing] = useState<QuickPhrase | null | undefined>(undefined);
  useEffect(() => {
    if (!open) setEditing(undefined);
  }, [open]);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="quick-phrase-title">
      {editing === undefined ? (
        <PhraseList onClose={onClose} onEdit={setEditing} />
      ) : (
        <PhraseEditor phrase={editing} onDone={() => setEditing(undefined)} />
      )}
    </Dialog>
  );
}

function PhraseList({ onClose, onEdit }: { onClose: () => void; onEdit: (phrase: QuickPhrase | null) => void }) {
  const phrases = useQuickPhrasesQuery();
  const deletion = useItemDeletion<QuickPhrase>(useDeleteQuickPhrase(), t.deletedToast);
  const [search, setSearch] = useState('');
  const rows = useMemo(() => {
    const needle = search.trim().toLowerCase();
    const all = phrases.data ?? [];
    return needle ? all.filter((p) => p.tag.toLowerCase().includes(needle) || p.phrase.toLowerCase().includes(needle)) : all;
  }, [phrases.data, search]);


  return (
    <>
      <DialogTitle id="quick-phrase-title">{t.title}</DialogTitle>
      <DialogContent dividers sx={{ px: 0, minHeight: 240 }}>
        <Box sx={{ px: 3, pb: 1 }}>
          <TextField
            id="quick-phrase-search"
            label={t.search}
            type="search"
            size="small"
            fullWidth
            autoFocus
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> } }}
          />
        </Box>
        <DialogListStates query={phrases} loadError={t.loadError} empty={rows.length === 0} emptyText={search.trim() ? t.noMatch : t.empty} emptyPy={3}>
          <Box component="ul" aria-label={t.title} sx={{ listStyle: 'none', m: 0, p: 0 }}>
            {rows.map((p) => (
              // The preview has the row's whole width under the shortcut and its actions: beside them, a phone
              // had room for a dozen letters of the phrase.
              <Box
                component="li"
                key={p.id}
                data-testid="quick-phrase-row"
                sx={{ display: 'grid', gridTemplateColumns: 'minmax(0, 1fr) auto auto auto', alignItems: 'center', columnGap: 1, px: 3, py: 0.75, borderBottom: 1, borderColor: 'divider' }}
              >
                <Typography component="div" fontWeight={600} fontSize={14} noWrap>
                  {p.tag}
                </Typography>
                <Chip size="small" variant="outlined" label={p.privacy === 'private' ? t.private : t.public} />
                <EditDeleteButtons editLabel={format(t.editPhrase, { tag: p.tag })} deleteLabel={format(t.deletePhrase, { tag: p.tag })} onEdit={() => onEdit(p)} onDelete={() => deletion.ask(p)} />
                <Typography component="div" color="text.secondary" fontSize={13} title={p.phrase} data-testid="quick-phrase-preview" sx={{ gridColumn: '1 / -1', overflowWrap: 'anywhere' }}>
                  {previewOf(p.phrase)}
                </Typography>
              </Box>
            ))}
          </Box>
        </DialogListStates>
      </DialogContent>
      <ListDialogActions newLabel={t.newPhrase} onNew={() => onEdit(null)} onClose={onClose} />
      <DeleteConfirm {...deletion.confirmProps} title={format(t.deleteTitle, { tag: deletion.item?.tag ?? '' })} />
    </>
  );
}

function PhraseEditor({ phrase, onDone }: { phrase: QuickPhrase | null; onDone: () => void }) {
  const notify = useNotify();
  const save = useSaveQuickPhrase();
  const { control, handleSubmit, setError, formState } = useForm<PhraseForm>({
    resolver: zodResolver(QuickPhraseSchema),
    defaultValues: { tag: phrase?.tag ?? '', phrase: phrase?.phrase ?? '', privacy: phrase?.privacy ?? '' },
  });
  const submit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ id: phrase?.id, body: { tag: values.tag, phrase: values.phrase, privacy: values.privacy as 'public' | 'private' } });
      notify(phrase ? t.updated : t.created, { type: 'success' });
      onDone();
    } catch (err) {
      const rest = applyServerErrors(err, FIELDS, setError);
      for (const message of rest.length > 0 ? rest : failureToasts(err)) notify(message, { type: 'error' });
    }
  });
  return (
    <form
      noValidate
      // Dialogs render in a portal, yet React bubbles their submit to a host form (the composer's).
      onSubmit={(e) => {
        e.stopPropagation();
        void submit(e);
      }}
    >
      <DialogTitle id="quick-phrase-title">{phrase ? t.editTitle : t.newTitle}</DialogTitle>
      <DialogContent dividers>
        <Controller
          name="tag"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              id="quick-phrase-tag"
              name={field.name}
              inputRef={field.ref}
              label={t.tag}
              required
              autoFocus
              fullWidth
              margin="dense"
              placeholder="/bom_dia"
              value={field.value}
              onChange={(e) => field.onChange(normalizeTag(e.target.value))}
              onBlur={field.onBlur}
              error={fieldState.invalid}
              helperText={fieldState.error?.message ?? t.tagHelp}
            />
          )}
        />
        <FormTextField control={control} name="phrase" label={t.phrase} required multiline minRows={3} maxRows={10} margin="dense" />
        <Controller
          name="privacy"
          control={control}
          render={({ field, fieldState }) => (
            <FormControl component="fieldset" margin="dense" required error={fieldState.invalid}>
              <FormLabel component="legend">{t.privacy}</FormLabel>
              <RadioGroup row name={field.name} value={field.value} onChange={(e) => field.onChange(e.target.value)}>
                <FormControlLabel value="public" control={<Radio inputRef={field.ref} />} label={`${t.public} (${t.publicHelp})`} />
                <FormControlLabel value="private" control={<Radio />} label={`${t.private} (${t.privateHelp})`} />
              </RadioGroup>
              {fieldState.error?.message ? <FormHelperText>{fieldState.error.message}</FormHelperText> : null}
            </FormControl>
          )}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onDone}>{t.back}</Button>
        <Button type="submit" variant="contained" loading={formState.isSubmitting}>
          {texts.common.save}
        </Button>
      </DialogActions>
    </form>
  );
}
