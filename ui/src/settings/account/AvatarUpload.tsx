import { useRef, useState } from 'react';
import { useNotify } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { request } from '../../providers/httpClient';
import { failureToasts } from '../../forms/serverErrors';
import { NameAvatar } from '../../common/NameAvatar';

const t = texts.integrations.avatar;
/** SPEC §5: avatar upload, image, max 1MB (the server checks it again, by content). */
const MAX_BYTES = 1024 * 1024;

/**
 * The avatar of the profile or of the workspace: POST multipart `avatar` to `path`; the answer's
 * data[0].fileName is the new avatar URL.
 */
export function AvatarUpload({ path, name, avatar, disabled, onUploaded }: { path: string; name: string; avatar: string | null | undefined; disabled?: boolean; onUploaded: (url: string) => void }) {
  const notify = useNotify();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (file: File) => {
    if (file.size > MAX_BYTES) {
      notify(t.tooLarge, { type: 'error' });
      return;
    }
    const form = new FormData();
    form.append('avatar', file);
    setBusy(true);
    try {
      const res = await request(`/api${path}`, { method: 'POST', body: form });
      const url = (res.json as { data: { fileName: string }[] }).data[0].fileName;
      onUploaded(url);
      notify(t.updated, { type: 'success' });
    } catch (err) {
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
    setBusy(false);
  };

  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
      <NameAvatar name={name || '?'} avatar={avatar} size={56} />
      <Box>
        <Button variant="outlined" size="small" disabled={disabled || busy} onClick={() => input.current?.click()}>
          {t.change}
        </Button>
        <Typography variant="caption" display="block" color="text.secondary" sx={{ mt: 0.5 }}>
          {t.hint}
        </Typography>
        <input
          ref={input}
          type="file"
          name="avatar"
          accept="image/png,image/jpeg,image/gif,image/webp"
          hidden
          data-testid={`avatar-input${path.replace(/\//g, '-')}`}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) void upload(file);
          }}
        />
      </Box>
    </Box>
  );
}
