import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { texts } from '../../i18n/ptBR';
import { errorDescriptions } from '../../providers/httpClient';
import { webhookApi } from './webhookApi';

const t = texts.webhook;
const deliveriesKey = ['settings', '/webhook', 'deliveries'] as const;

/** The latest deliveries (newest first) with 'Reenviar' for each. Refreshes every few seconds while retries are pending. */
export function DeliveryLog() {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const { data = [], refetch } = useQuery({
    queryKey: deliveriesKey,
    queryFn: webhookApi.deliveries,
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === 'pending') ? 5000 : false),
  });

  const replay = async (id: number) => {
    try {
      await webhookApi.replay(id);
      notify(t.replayed, { type: 'success' });
      await queryClient.invalidateQueries({ queryKey: deliveriesKey });
    } catch (err) {
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    }
  };

  return (
    <Box sx={{ mt: 4 }}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {t.deliveries}
        </Typography>
        <Button size="small" onClick={() => void refetch()}>
          {t.refresh}
        </Button>
      </Box>
      {data.length === 0 ? (
        <Typography color="text.secondary">{t.noDeliveries}</Typography>
      ) : (
        <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label={t.deliveries}>
          <TableHead>
            <TableRow>
              <TableCell>{t.deliveryId}</TableCell>
              <TableCell>{t.columns.event}</TableCell>
              <TableCell>{t.columns.status}</TableCell>
              <TableCell align="right">{t.columns.attempts}</TableCell>
              <TableCell align="right">{t.columns.code}</TableCell>
              <TableCell>{t.columns.time}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((d) => (
              <TableRow key={d.id}>
                <TableCell sx={{ fontFamily: 'monospace' }}>{d.webhookId}</TableCell>
                <TableCell>{d.event}</TableCell>
                <TableCell title={d.lastError ?? undefined}>{t.statuses[d.status]}</TableCell>
                <TableCell align="right">{d.attempts}</TableCell>
                <TableCell align="right">{d.lastStatusCode ?? '—'}</TableCell>
                <TableCell>{new Date(d.createdAt).toLocaleString('pt-BR')}</TableCell>
                <TableCell>
                  <Button size="small" onClick={() => void replay(d.id)} disabled={d.status === 'pending'} aria-label={`${t.replay} ${d.webhookId}`}>
                    {t.replay}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
        </Box>
      )}
    </Box>
  );
}
