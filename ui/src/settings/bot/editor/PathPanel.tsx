import { Link as RouterLink, Navigate, useNavigate, useParams } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import Close from '@mui/icons-material/Close';
import { ACTION_TYPES, canAppendAction } from '../../../../../api/bots/schema';
import { texts } from '../../../i18n/ptBR';
import { actionSummary } from './actionSummary';
import { errorsUnder, useEditor } from './EditorContext';
import { findPath, moveAction } from './draft';
import { usePressSortable } from './usePressSortable';

const t = texts.bots;

/** /path/{guid}: the path beside the canvas — its actions in order (press 200 ms and drag to reorder) and the action types to add. */
export function PathPanel() {
  const { pathGuid } = useParams();
  const { doc, update, errors, choices, base } = useEditor();
  const navigate = useNavigate();
  const found = findPath(doc, pathGuid);
  const { itemProps, dragging } = usePressSortable((from, to) => pathGuid && update((d) => moveAction(d, pathGuid, from, to)));
  if (!found) return <Navigate to={base} replace />;
  const { path, index } = found;
  const canAppend = canAppendAction(path);

  return (
    <Paper elevation={4} component="aside" aria-label={path.name} sx={{ position: 'absolute', top: 8, right: 8, bottom: 8, width: { xs: 'auto', sm: 320 }, left: { xs: 8, sm: 'auto' }, zIndex: 5, display: 'flex', flexDirection: 'column', overflow: 'hidden' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, py: 1, borderBottom: 1, borderColor: 'divider' }}>
        <Typography variant="subtitle1" fontWeight={700} sx={{ flex: 1 }} noWrap>
          {path.name}
        </Typography>
        <IconButton aria-label={texts.common.close} onClick={() => void navigate(base)}>
          <Close />
        </IconButton>
      </Box>
      <Box sx={{ overflowY: 'auto', flex: 1, p: 1 }}>
        <Button component={RouterLink} to={`${base}/path/${path.guid}/edit`} size="small">
          {t.editPath}
        </Button>
        <List dense aria-label={t.paths}>
          {path.actions.map((action, j) => {
            const error = Object.values(errorsUnder(errors, `paths.${index}.actions.${j}.`))[0];
            return (
              <ListItemButton
                key={action.guid}
                {...itemProps(j)}
                onClick={() => void navigate(`${base}/path/${path.guid}/${action.type}/${action.guid}`)}
                sx={{ border: 1, borderColor: error ? 'error.main' : 'divider', borderRadius: 1, mb: 0.5, touchAction: 'none', opacity: dragging?.from === j ? 0.5 : 1, outline: dragging && dragging.to === j && dragging.from !== j ? '2px solid #1570EF' : undefined }}
              >
                <ListItemText primary={`${j + 1}. ${t.actionTypes[action.type]}`} secondary={error ?? actionSummary(action, doc, choices)} slotProps={{ secondary: { noWrap: true, color: error ? 'error' : undefined } }} />
              </ListItemButton>
            );
          })}
        </List>
        <Typography variant="overline" component="h3">
          {t.addAction}
        </Typography>
        {canAppend ? (
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
            {ACTION_TYPES.map((type) => (
              <Button key={type} size="small" variant="outlined" component={RouterLink} to={`${base}/path/${path.guid}/${type}/new`}>
                {t.actionTypes[type]}
              </Button>
            ))}
          </Box>
        ) : (
          <Alert severity="info">{t.cannotAppend}</Alert>
        )}
      </Box>
    </Paper>
  );
}
