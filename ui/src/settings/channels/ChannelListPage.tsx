import { useQuery } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import { texts } from '../../i18n/ptBR';
import { errorDescriptions } from '../../providers/httpClient';
import { ChannelIcon } from '../../inbox/ChannelIcon';
import { channelsApi, type Channel } from './channelsApi';
import { slugOf, truncateName } from './channelTypes';

const t = texts.channels;
export const channelsKey = ['settings', 'channels'] as const;

function statusText(status: string): string {
  return (t.status as Record<string, string>)[status] ?? status;
}

/** /settings/channels: every channel of the workspace; a row opens its settings at /settings/channels/{type}/{id}. */
export function ChannelListPage() {
  const navigate = useNavigate();
  const { data, error, isPending } = useQuery({ queryKey: channelsKey, queryFn: channelsApi.list });
  const open = (c: Channel) => void navigate(`/settings/channels/${slugOf(c.channelId)}/${c.id}`);

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, maxWidth: 960 }}>
        <Typography variant="h5" component="h1" fontWeight={700} sx={{ flex: 1 }}>
          {t.title}
        </Typography>
        <Button component={RouterLink} to="/settings/channels/add" variant="contained" startIcon={<Add />}>
          {t.add}
        </Button>
      </Box>
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {isPending ? <LinearProgress aria-label={texts.common.loading} /> : null}
      {data && data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, maxWidth: 720 }}>
          <Typography>{t.empty}</Typography>
        </Paper>
      ) : null}
      {data && data.length > 0 ? (
        <Paper variant="outlined" sx={{ maxWidth: 960 }}>
          <Table aria-label={t.title}>
            <TableHead>
              <TableRow>
                <TableCell>{t.columns.name}</TableCell>
                <TableCell>{t.columns.type}</TableCell>
                <TableCell>{t.columns.status}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((c) => {
                const name = c.description || c.name || c.identifier;
                return (
                  <TableRow
                    key={c.id}
                    hover
                    tabIndex={0}
                    sx={{ cursor: 'pointer' }}
                    onClick={() => open(c)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter') open(c);
                    }}
                  >
                    <TableCell title={name}>{truncateName(name)}</TableCell>
                    <TableCell>
                      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                        <ChannelIcon platformId={c.platformId} aria-hidden />
                        {t.types[slugOf(c.channelId)]}
                      </Box>
                    </TableCell>
                    <TableCell>{statusText(c.status)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </Paper>
      ) : null}
    </>
  );
}
