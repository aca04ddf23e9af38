import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { PathSchema } from '../../../../../api/bots/schema';
import { texts } from '../../../i18n/ptBR';
import { useEditor } from './EditorContext';
import { addPath, findPath, removePath, renamePath } from './draft';
import { issuesToKeys } from './fieldErrors';
import { TextInput } from './fields';
import { EditorDialogActions } from './EditorDialogActions';

const t = texts.bots;

/** /path/new and /path/{guid}/edit: the path's name (and deleting it). */
export function PathDialog() {
  const { pathGuid } = useParams();
  const { doc, update, errors: saved, clearErrors, base } = useEditor();
  const navigate = useNavigate();
  const found = pathGuid ? findPath(doc, pathGuid) : undefined;
  const [name, setName] = useState(found?.path.name ?? '');
  const [error, setError] = useState<string | undefined>(found ? saved[`paths.${found.index}.name`] : undefined);
  if (pathGuid && !found) return <Navigate to={base} replace />;
  const close = () => void navigate(found ? `${base}/path/${found.path.guid}` : base);

  const apply = () => {
    const parsed = PathSchema.shape.name.safeParse(name);
    if (!parsed.success) return setError(issuesToKeys(parsed.error.issues).body);
    if (found) {
      clearErrors(`paths.${found.index}.name`);
      update((d) => renamePath(d, found.path.guid, parsed.data));
      return close();
    }
    const added = addPath(doc, parsed.data);
    update(() => added.doc);
    void navigate(`${base}/path/${added.guid}`);
  };

  const remove = () => {
    if (!found) return;
    update((d) => removePath(d, found.path.guid));
    void navigate(base);
  };

  return (
    <Dialog open onClose={close} fullWidth maxWidth="xs" aria-labelledby="bot-path-title">
      <DialogTitle id="bot-path-title">{found ? t.editPath : t.newPath}</DialogTitle>
      <DialogContent>
        <Box component="form" onSubmit={(e) => (e.preventDefault(), apply())}>
          <TextInput id="path-name" label={t.pathName} required autoFocus value={name} onChange={setName} error={error} />
        </Box>
      </DialogContent>
      <EditorDialogActions onClose={close} onApply={apply} applyLabel={texts.common.save} remove={found ? { label: t.deletePath, onClick: remove } : undefined} />
    </Dialog>
  );
}
