import { memo, useEffect, useState } from 'react';
import { Handle, Position, useUpdateNodeInternals, type Node, type NodeProps } from '@xyflow/react';
import { useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import EditOutlined from '@mui/icons-material/EditOutlined';
import { ACTION_TYPES, canAppendAction } from '../../../../../api/bots/schema';
import { texts } from '../../../i18n/ptBR';
import { actionSummary } from './actionSummary';
import { errorsUnder, useEditor } from './EditorContext';
import { findPath, handleId, moveAction, type ActionDoc } from './draft';
import { usePressSortable } from './usePressSortable';
import { TipIconButton } from '../../../common/TipIconButton';

const t = texts.bots;

export type PathNodeData = { guid: string };
export type PathNodeType = Node<PathNodeData, 'path'>;

/** SPEC §9: a bot message shows at most 8 lines in the node. */
const clamp8 = { display: '-webkit-box', WebkitLineClamp: 8, WebkitBoxOrient: 'vertical', overflow: 'hidden', whiteSpace: 'pre-wrap', wordBreak: 'break-word' } as const;

const handleSx = { width: 10, height: 10, background: '#1570EF' };

function SourceHandle({ id, label }: { id: string; label: string }) {
  return <Handle type="source" position={Position.Right} id={id} style={handleSx} aria-label={label} title={label} />;
}

/** The rows under an action that can lead to another path, each with its own handle. */
function ActionJumps({ action, pathOf }: { action: ActionDoc; pathOf: (guid: string | null | undefined) => string }) {
  const row = (key: string, text: string, handle: string) => (
    <Box key={key} sx={{ position: 'relative', fontSize: 12, bgcolor: 'action.hover', borderRadius: 1, px: 1, py: 0.25, mt: 0.5 }} data-testid={`jump-${handle}`}>
      {text}
      <SourceHandle id={handle} label={text} />
    </Box>
  );
  if (action.type === 'menu') {
    return <>{action.options.map((o, i) => row(o.guid, `${i + 1}. ${o.name || '…'}${o.goTo ? ` → ${pathOf(o.goTo)}` : ''}`, handleId({ kind: 'option', action: action.guid, option: o.guid })))}</>;
  }
  if (action.type === 'goto' || action.type === 'path') return row('jump', `→ ${pathOf(action.goToPath)}`, handleId({ kind: 'jump', action: action.guid }));
  if (action.type === 'integration') return row('failure', `${t.edges.failure}${action.failurePath ? ` → ${pathOf(action.failurePath)}` : ''}`, handleId({ kind: 'failure', action: action.guid }));
  return null;
}

/** One path on the canvas: its name, its actions in order (reorderable after a 200 ms press), jump handles, '+'. */
export const PathNode = memo(function PathNode({ id }: NodeProps<PathNodeType>) {
  const { doc, update, errors, choices, base } = useEditor();
  const navigate = useNavigate();
  const updateNodeInternals = useUpdateNodeInternals();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const found = findPath(doc, id);
  const { itemProps, dragging } = usePressSortable((from, to) => update((d) => moveAction(d, id, from, to)));
  // Handles move with the rows: React Flow re-measures them when the actions change.
  const actions = found?.path.actions;
  useEffect(() => updateNodeInternals(id), [actions, id, updateNodeInternals]);
  if (!found) return null;
  const { path, index } = found;
  const pathErrors = errorsUnder(errors, `paths.${index}.`);
  const pathOf = (guid: string | null | undefined) => (guid ? (doc.paths.find((p) => p.guid === guid)?.name ?? '?') : '');
  const canAppend = canAppendAction(path);

  return (
    <Box
      data-testid={`path-node-${path.name}`}
      sx={{ width: 280, bgcolor: 'background.paper', border: 2, borderColor: Object.keys(pathErrors).length ? 'error.main' : index === 0 ? 'primary.main' : 'divider', borderRadius: 2, boxShadow: 1 }}
    >
      <Handle type="target" position={Position.Left} id="in" style={{ ...handleSx, background: '#027A48' }} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, px: 1.5, py: 1, borderBottom: 1, borderColor: 'divider', cursor: 'grab' }}>
        <Typography variant="subtitle2" sx={{ flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={path.name}>
          {path.name}
        </Typography>
        {index === 0 ? <Chip size="small" color="primary" label={t.start} /> : null}
        <TipIconButton title={t.editPath} size="small" className="nodrag" aria-label={`${t.editPath}: ${path.name}`} onClick={() => void navigate(`${base}/path/${path.guid}/edit`)}>
          <EditOutlined fontSize="small" />
        </TipIconButton>
      </Box>
      <Box component="ol" className="nodrag nowheel" sx={{ listStyle: 'none', m: 0, p: 1, display: 'flex', flexDirection: 'column', gap: 0.75 }}>
        {path.actions.length === 0 ? (
          <Typography component="li" variant="body2" color="text.secondary" sx={{ px: 0.5 }}>
            {t.noActions}
          </Typography>
        ) : null}
        {path.actions.map((action, j) => {
          const error = Object.entries(errorsUnder(pathErrors, `actions.${j}.`))[0]?.[1];
          const isDragged = dragging?.from === j;
          const dropBefore = dragging && dragging.to === j && dragging.from > j;
          const dropAfter = dragging && dragging.to === j && dragging.from < j;
          const sortable = itemProps(j);
          return (
            <Box
              component="li"
              key={action.guid}
              {...sortable}
              data-testid={`action-${action.type}-${j}`}
              aria-label={`${t.actionTypes[action.type]} ${j + 1}`}
              tabIndex={0}
              onClick={() => void navigate(`${base}/path/${path.guid}/${action.type}/${action.guid}`)}
              onKeyDown={(e) => {
                sortable.onKeyDown(e);
                if (e.key === 'Enter') void navigate(`${base}/path/${path.guid}/${action.type}/${action.guid}`);
              }}
              sx={{
                position: 'relative',
                border: 1,
                borderColor: error ? 'error.main' : 'divider',
                borderRadius: 1,
                px: 1,
                py: 0.75,
                cursor: 'pointer',
                userSelect: 'none',
                touchAction: 'none',
                opacity: isDragged ? 0.5 : 1,
                borderTop: dropBefore ? '3px solid #1570EF' : undefined,
                borderBottom: dropAfter ? '3px solid #1570EF' : undefined,
                '&:hover': { bgcolor: 'action.hover' },
              }}
            >
              <Typography variant="caption" color="text.secondary" sx={{ fontWeight: 600 }}>
                {t.actionTypes[action.type]}
              </Typography>
              <Typography variant="body2" sx={clamp8} data-testid="action-text">
                {actionSummary(action, doc, choices)}
              </Typography>
              <ActionJumps action={action} pathOf={pathOf} />
              {error ? (
                <Typography variant="caption" color="error" sx={{ display: 'block' }}>
                  {error}
                </Typography>
              ) : null}
            </Box>
          );
        })}
      </Box>
      <Box sx={{ px: 1, pb: 1 }}>
        <TipIconButton title={canAppend ? '' : t.cannotAppend} size="small" className="nodrag" disabled={!canAppend} aria-label={`${t.addAction}: ${path.name}`} onClick={(e) => setMenuAnchor(e.currentTarget)}>
          <Add fontSize="small" />
        </TipIconButton>
        <Menu anchorEl={menuAnchor} open={!!menuAnchor} onClose={() => setMenuAnchor(null)}>
          {ACTION_TYPES.map((type) => (
            <MenuItem
              key={type}
              onClick={() => {
                setMenuAnchor(null);
                void navigate(`${base}/path/${path.guid}/${type}/new`);
              }}
            >
              {t.actionTypes[type]}
            </MenuItem>
          ))}
        </Menu>
      </Box>
    </Box>
  );
});
