import { useState } from 'react';
import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItemAvatar from '@mui/material/ListItemAvatar';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import { errorDescriptions } from '../../../providers/httpClient';
import { texts } from '../../../i18n/ptBR';
import { channelsKey } from '../channelKeys';
import { metaApi, metaKey, type FacebookChannel } from './metaApi';

const t = texts.channels.facebook;

/**
 * SPEC §2 'Facebook page chooser': after Meta's login, the pages the person manages (GET /me/accounts,
 * through our API: avatars and names, no tokens). Choosing one saves it and toasts `savedText`.
 */
export function PageChooserModal({ session, savedText, onClose, onSaved }: { session: string; savedText: string; onClose: () => void; onSaved?: (c: FacebookChannel) => void }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState<string>();
  const { data: pages, error } = useQuery({ queryKey: [...metaKey, 'login-pages', session], queryFn: () => metaApi.loginPages(session), retry: false });
  const choose = async (pageId: string) => {
    setSaving(pageId);
    try {
      const channel = await metaApi.connectPage(session, pageId);
      await Promise.all([queryClient.invalidateQueries({ queryKey: channelsKey, exact: true }), queryClient.invalidateQueries({ queryKey: metaKey })]);
      notify(savedText, { type: 'success' });
      onSaved?.(channel);
      onClose();
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'warning' });
    } finally {
      setSaving(undefined);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="page-chooser-title">
      <DialogTitle id="page-chooser-title">{t.chooseTitle}</DialogTitle>
      <DialogContent>
        {error ? <Alert severity="warning">{errorDescriptions(error).join(' ')}</Alert> : null}
        {!pages && !error ? <LinearProgress /> : null}
        {pages && !pages.length ? <Alert severity="info">{t.noPages}</Alert> : null}
        <List>
          {pages?.map((p) => (
            <ListItemButton key={p.id} disabled={saving !== undefined} onClick={() => void choose(p.id)} aria-label={p.name}>
              <ListItemAvatar>
                <Avatar src={p.picture ?? undefined} alt="">
                  {p.name.slice(0, 1)}
                </Avatar>
              </ListItemAvatar>
              <ListItemText primary={p.name} secondary={p.instagram?.username ? `Instagram: @${p.instagram.username}` : undefined} />
              {p.connected ? <Chip size="small" label={t.connected} /> : null}
            </ListItemButton>
          ))}
        </List>
        {saving !== undefined ? <LinearProgress /> : null}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.cancel}</Button>
      </DialogActions>
    </Dialog>
  );
}
