import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { ACTION_TYPES, canAppendAction, type ActionType } from '../../../../../api/bots/schema';
import { texts } from '../../../i18n/ptBR';
import { ActionFields } from './ActionFields';
import { errorsUnder, useEditor } from './EditorContext';
import { blankAction, findAction, findPath, removeAction, saveAction, validateAction, type ActionDoc } from './draft';
import { EditorDialogActions } from './EditorDialogActions';

const t = texts.bots;

function parseJson(text: string, fallback: unknown): { ok: true; value: unknown } | { ok: false } {
  if (!text.trim()) return { ok: true, value: fallback };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * /path/{guid}/{action}/{guid}: the form of one action; `/path/{guid}/{action}/new` adds one of that type at
 * the end of the path (only when canAppendAction). Checked with the shared ActionSchema before it enters the bot.
 */
export function ActionDialog() {
  const { pathGuid, actionType, actionGuid } = useParams();
  const { doc, base } = useEditor();
  const found = findPath(doc, pathGuid);
  if (!ACTION_TYPES.includes(actionType as ActionType)) return <Navigate to="/settings/bot" replace />;
  if (!found) return <Navigate to={base} replace />;
  const type = actionType as ActionType;
  const pathUrl = `${base}/path/${found.path.guid}`;
  if (actionGuid === 'new') {
    if (!canAppendAction(found.path)) return <Navigate to={pathUrl} replace />;
    const firstOther = doc.paths.find((p) => p.guid !== found.path.guid)?.guid;
    return <ActionForm key={`new-${type}`} pathGuid={found.path.guid} pathIndex={found.index} initial={blankAction(type, firstOther)} isNew />;
  }
  const action = findAction(found.path, actionGuid);
  if (!action || action.action.type !== type) return <Navigate to={pathUrl} replace />;
  return <ActionForm key={action.action.guid} pathGuid={found.path.guid} pathIndex={found.index} actionIndex={action.index} initial={action.action} />;
}

function ActionForm({ pathGuid, pathIndex, actionIndex, initial, isNew }: { pathGuid: string; pathIndex: number; actionIndex?: number; initial: ActionDoc; isNew?: boolean }) {
  const { doc, update, errors: saved, clearErrors, choices, base } = useEditor();
  const navigate = useNavigate();
  const [value, setValue] = useState<ActionDoc>(initial);
  const prefix = `paths.${pathIndex}.actions.${actionIndex ?? -1}.`;
  const [errors, setErrors] = useState<Record<string, string>>(() => (actionIndex === undefined ? {} : errorsUnder(saved, prefix)));
  const [json, setJsonState] = useState(() => ({
    headers: initial.type === 'integration' && Object.keys(initial.script.headers ?? {}).length ? JSON.stringify(initial.script.headers, null, 2) : '',
    map: initial.type === 'integration' && initial.map?.length ? JSON.stringify(initial.map, null, 2) : '',
  }));
  const close = () => void navigate(`${base}/path/${pathGuid}`);

  const apply = () => {
    let candidate = value;
    const jsonErrors: Record<string, string> = {};
    if (candidate.type === 'integration') {
      const headers = parseJson(json.headers, {});
      const map = parseJson(json.map, []);
      if (!headers.ok) jsonErrors['script.headers'] = t.fields.invalidJson;
      if (!map.ok) jsonErrors.map = t.fields.invalidJson;
      if (headers.ok && map.ok) candidate = { ...candidate, script: { ...candidate.script, headers: headers.value as Record<string, string> }, map: map.value as typeof candidate.map };
    }
    const result = validateAction(candidate);
    const all = { ...result.errors, ...jsonErrors };
    setErrors(all);
    if (Object.keys(all).length || !result.value) return;
    if (actionIndex !== undefined) clearErrors(prefix);
    update((d) => saveAction(d, pathGuid, result.value!));
    close();
  };

  const remove = () => {
    update((d) => removeAction(d, pathGuid, value.guid));
    if (actionIndex !== undefined) clearErrors(`paths.${pathIndex}.actions.`);
    close();
  };

  return (
    <Dialog open onClose={close} fullWidth maxWidth="sm" aria-labelledby="bot-action-title">
      <DialogTitle id="bot-action-title">
        {isNew ? t.newAction : t.editAction}: {t.actionTypes[value.type]}
      </DialogTitle>
      <DialogContent>
        <ActionFields
          value={value}
          set={(patch) => setValue((v) => ({ ...v, ...patch }) as ActionDoc)}
          errors={errors}
          doc={doc}
          pathGuid={pathGuid}
          choices={choices}
          json={json}
          setJson={(patch) => setJsonState((j) => ({ ...j, ...patch }))}
        />
      </DialogContent>
      <EditorDialogActions onClose={close} onApply={apply} applyLabel={t.apply} remove={!isNew ? { label: t.deleteAction, onClick: remove } : undefined} />
    </Dialog>
  );
}
