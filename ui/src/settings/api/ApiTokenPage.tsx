import { useState } from 'react';
import { Confirm, useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { format } from '../../i18n/format';
import { api, errorDescriptions } from '../../providers/httpClient';
import { failureToasts } from '../../forms/serverErrors';
import { SettingsPage } from '../SettingsPage';
import { CopyField } from '../common';

const t = texts.integrations.api;
const key = ['settings', 'apiSecrets'] as const;

interface ApiSecrets {
  apiSecret: string | null;
  apiToken: string | null;
  createdAt: string | null;
  createdBy: { id: number; name: string } | null;
  masked: boolean;
}

/** /settings/api: the workspace's API Secret and token (docs/api-token.md); the full token only right after (re)generation. */
export function ApiTokenPage() {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const { data, error, isPending } = useQuery({ queryKey: key, queryFn: () => api<ApiSecrets>('/workspace/secrets') });

  const regenerate = async () => {
    setConfirming(false);
    setBusy(true);
    try {
      queryClient.setQueryData(key, await api<ApiSecrets>('/workspace/secrets', { method: 'POST' }));
    } catch (err) {
      for (const message of failureToasts(err)) notify(message, { type: 'error' });
    }
    setBusy(false);
  };

  return (
    <SettingsPage title={t.title}>
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {isPending ? <LinearProgress aria-label={texts.common.loading} /> : null}
      {data ? (
        <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
          <Typography variant="body2" color="text.secondary">
            {t.intro}
          </Typography>
          {data.apiSecret && data.apiToken ? (
            <>
              <CopyField label={t.apiSecret} value={data.apiSecret} copyable />
              <CopyField label={t.apiToken} value={data.apiToken} copyable={!data.masked} />
              {data.createdBy ? <Alert severity="info">{format(t.actsAs, { name: data.createdBy.name })}</Alert> : null}
              {!data.masked ? <Alert severity="warning">{t.onceNotice}</Alert> : null}
            </>
          ) : (
            <Typography>{t.none}</Typography>
          )}
          <Box>
            <Button variant="contained" disabled={busy} onClick={() => (data.apiToken ? setConfirming(true) : void regenerate())}>
              {data.apiToken ? t.regenerate : t.generate}
            </Button>
          </Box>
        </Box>
      ) : null}
      <Confirm
        isOpen={confirming}
        title={t.regenerateTitle}
        content={t.regenerateConfirm}
        confirm={t.confirm}
        cancel={texts.common.cancel}
        onConfirm={() => void regenerate()}
        onClose={() => setConfirming(false)}
      />
    </SettingsPage>
  );
}
