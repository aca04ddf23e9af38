import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { DataTable } from '../../common/DataTable';
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
        <DataTable
          aria-label={t.deliveries}
          rows={data}
          columns={[
            { header: t.deliveryId, cell: (d) => d.webhookId, cellProps: () => ({ sx: { fontFamily: 'monospace' } }) },
            { header: t.columns.event, cell: (d) => d.event },
            { header: t.columns.status, cell: (d) => t.statuses[d.status], cellProps: (d) => ({ title: d.lastError ?? undefined }) },
            { header: t.columns.attempts, align: 'right', cell: (d) => d.attempts },
            { header: t.columns.code, align: 'right', cell: (d) => d.lastStatusCode ?? '—' },
            { header: t.columns.time, cell: (d) => new Date(d.createdAt).toLocaleString('pt-BR') },
            {
              cell: (d) => (
                <Button size="small" onClick={() => void replay(d.id)} disabled={d.status === 'pending'} aria-label={`${t.replay} ${d.webhookId}`}>
                  {t.replay}
                </Button>
              ),
            },
          ]}
        />
        </Box>
      )}
    </Box>
  );
}
