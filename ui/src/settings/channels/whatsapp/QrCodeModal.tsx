import { useEffect, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNotify } from 'react-admin';
import { QRCodeSVG } from 'qrcode.react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { texts } from '../../../i18n/ptBR';
import { errorDescriptions } from '../../../providers/httpClient';
import { channelsKey } from '../channelKeys';
import { channelStatusLabel } from '../channelPage';
import { QR_MODAL_SIZE, QR_POLL_MS, whatsappApi, whatsappLineKey } from './whatsappApi';

const t = texts.channels.whatsapp;

/**
 * SPEC §2 modal 'WhatsApp QR reading': the pending QR of a line, 250 px, polled every 3 s from
 * GET /integrations/whatsapp/qrcode/{id}; it closes by itself once the phone links (status connected).
 * While the connection is starting there is no QR yet (a spinner); a line that stopped (disconnected)
 * says so and offers 'Reiniciar'.
 */
export function QrCodeModal({ channelId, open, onClose }: { channelId: number; open: boolean; onClose: () => void }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { data, error, isPending } = useQuery({
    queryKey: ['whatsapp', 'qrcode', channelId],
    queryFn: ({ signal }) => whatsappApi.qrcode(channelId, signal),
    enabled: open,
    refetchInterval: open ? QR_POLL_MS : false,
    refetchIntervalInBackground: true,
    gcTime: 0,
    retry: false,
  });
  const connected = data?.status === 'connected';

  useEffect(() => {
    if (!open || !connected) return;
    notify(t.qrConnected, { type: 'success' });
    void queryClient.invalidateQueries({ queryKey: channelsKey, exact: true });
    void queryClient.invalidateQueries({ queryKey: whatsappLineKey(channelId) });
    onClose();
  }, [open, connected, channelId, notify, onClose, queryClient]);

  const restart = async () => {
    try {
      await whatsappApi.restart(channelId);
      notify(t.restarted, { type: 'info' });
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    }
  };

  let body: ReactNode;
  if (error) body = <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert>;
  else if (isPending || !data) body = <Spinner label={t.qrLoading} />;
  else if (data.qrcode)
    body = (
      <Box sx={{ p: 1, bgcolor: '#fff', lineHeight: 0 }} data-testid="whatsapp-qrcode" data-qrcode={data.qrcode}>
        <QRCodeSVG value={data.qrcode} size={QR_MODAL_SIZE} title={t.qrTitle} />
      </Box>
    );
  else if (data.status === 'disconnected')
    body = (
      <Alert severity="warning" action={<Button color="inherit" size="small" onClick={() => void restart()}>{t.restart}</Button>}>
        {t.qrStopped}
      </Alert>
    );
  else body = <Spinner label={`${t.qrWaiting} (${channelStatusLabel(data.status)})`} />;

  return (
    <Dialog open={open} onClose={onClose} aria-labelledby="qr-modal-title">
      <DialogTitle id="qr-modal-title">{t.qrTitle}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, minWidth: 320 }}>
        <Typography variant="body2" color="text.secondary">
          {t.qrHelp}
        </Typography>
        <Box sx={{ minHeight: QR_MODAL_SIZE + 16, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>{body}</Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.qrClose}</Button>
      </DialogActions>
    </Dialog>
  );
}

function Spinner({ label }: { label: string }) {
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1 }} role="status">
      <CircularProgress aria-hidden />
      <Typography variant="body2">{label}</Typography>
    </Box>
  );
}
