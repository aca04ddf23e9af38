import { useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { texts } from '../../../i18n/ptBR';
import { errorsUnder, useEditor } from './EditorContext';
import { movePath } from './draft';
import { usePressSortable } from './usePressSortable';

const t = texts.bots;

/** The paths in order beside the canvas: the first one starts the bot; press 200 ms and drag to reorder. */
export function PathList() {
  const { doc, update, errors, base } = useEditor();
  const navigate = useNavigate();
  const { itemProps, dragging } = usePressSortable((from, to) => update((d) => movePath(d, from, to)));
  return (
    <Box component="nav" aria-label={t.paths} sx={{ width: { xs: 'auto', sm: 200 }, maxHeight: { xs: 220, sm: 'none' }, flexShrink: 0, borderRight: { xs: 0, sm: 1 }, borderBottom: { xs: 1, sm: 0 }, borderColor: 'divider', overflowY: 'auto', p: 1 }}>
      <Typography variant="overline" component="h2">
        {t.paths}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
        {t.startHint}
      </Typography>
      <List dense disablePadding>
        {doc.paths.map((p, i) => {
          const hasError = Object.keys(errorsUnder(errors, `paths.${i}.`)).length > 0;
          return (
            <ListItemButton
              key={p.guid}
              {...itemProps(i)}
              data-testid={`path-item-${i}`}
              onClick={() => void navigate(`${base}/path/${p.guid}`)}
              sx={{ borderRadius: 1, mb: 0.5, border: 1, borderColor: hasError ? 'error.main' : 'divider', touchAction: 'none', opacity: dragging?.from === i ? 0.5 : 1, outline: dragging && dragging.to === i && dragging.from !== i ? '2px solid #1570EF' : undefined }}
            >
              <ListItemText primary={`${i + 1}. ${p.name}`} secondary={i === 0 ? t.start : undefined} />
            </ListItemButton>
          );
        })}
      </List>
    </Box>
  );
}
