import { useRef, type ChangeEvent } from 'react';
import { useNotify } from 'react-admin';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import FileUploadOutlined from '@mui/icons-material/FileUploadOutlined';
import { DataTable, keepFromRow } from '../../common/DataTable';
import { texts } from '../../i18n/ptBR';
import { errorDescriptions } from '../../providers/httpClient';
import { botApi, botChoicesKey, botsKey, toDoc, type BotRow } from './botApi';
import { downloadBot } from './downloadBot';
import { parseBotFile } from './importExport';
import { TipIconButton } from '../../common/TipIconButton';
import { NewItemLink } from '../common/ResourceList';

const t = texts.bots;

/** /settings/bot: the bots with their active toggle (saved at once, 'Bot atualizado'), 'Novo', 'Importar' and a per-bot export. */
export function BotListPage() {
  const navigate = useNavigate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const fileInput = useRef<HTMLInputElement>(null);
  const { data, error, isPending } = useQuery({ queryKey: botsKey, queryFn: botApi.list });
  const { data: choices } = useQuery({ queryKey: botChoicesKey, queryFn: botApi.choices });
  const open = (row: BotRow) => void navigate(`/settings/bot/${row.id}`);

  const toggle = async (row: BotRow, isActive: boolean) => {
    // Optimistic; SPEC §7: the PUT carries the whole bot.
    const set = (value: boolean) => queryClient.setQueryData<BotRow[]>(botsKey, (rows) => rows?.map((r) => (r.id === row.id ? { ...r, isActive: value } : r)));
    set(isActive);
    try {
      const saved = await botApi.update(row.id, { ...toDoc(row), isActive });
      queryClient.setQueryData<BotRow[]>(botsKey, (rows) => rows?.map((r) => (r.id === saved.id ? saved : r)));
      queryClient.setQueryData([...botsKey, saved.id], saved);
      notify(t.updated, { type: 'success' });
    } catch (err) {
      set(!isActive);
      for (const message of errorDescriptions(err)) notify(message, { type: 'error' });
    }
  };

  const importFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    // SPEC §8: an invalid bot file is not shown to the user.
    const doc = parseBotFile(await file.text());
    if (doc) void navigate('/settings/bot/new', { state: { imported: doc } });
  };

  const channelNames = (ids: number[]) => ids.map((id) => choices?.channels.find((c) => c.id === id)?.name ?? `#${id}`).join(', ');

  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 2, maxWidth: 960 }}>
        <Typography variant="h5" component="h1" fontWeight={700} sx={{ flex: 1 }}>
          {t.title}
        </Typography>
        <input ref={fileInput} type="file" accept="application/json,.json" hidden data-testid="bot-import-input" onChange={(e) => void importFile(e)} />
        <Button variant="outlined" startIcon={<FileUploadOutlined />} onClick={() => fileInput.current?.click()}>
          {t.import}
        </Button>
        <NewItemLink to="/settings/bot/new">{t.add}</NewItemLink>
      </Box>
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {isPending ? <LinearProgress aria-label={texts.common.loading} /> : null}
      {data && data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, maxWidth: 720 }}>
          <Typography>{t.empty}</Typography>
        </Paper>
      ) : null}
      {data && data.length > 0 ? (
        <Paper variant="outlined" sx={{ maxWidth: 960, overflowX: 'auto' }}>
          <DataTable
            size="medium"
            aria-label={t.title}
            rows={data}
            rowProps={(row) => ({ hover: true, tabIndex: 0, sx: { cursor: 'pointer' }, onClick: () => open(row), onKeyDown: (e) => e.key === 'Enter' && open(row) })}
            columns={[
              { header: t.columns.name, cell: (row) => row.name },
              { header: t.columns.priority, cell: (row) => row.priority },
              { header: t.columns.channels, cell: (row) => channelNames(row.channels) },
              { header: t.columns.paths, cell: (row) => row.paths.length },
              {
                header: t.columns.active,
                cellProps: () => keepFromRow,
                cell: (row) => <Switch checked={row.isActive} onChange={(e) => void toggle(row, e.target.checked)} slotProps={{ input: { 'aria-label': `${t.isActive}: ${row.name}` } }} />,
              },
              {
                align: 'right',
                cellProps: () => keepFromRow,
                cell: (row) => (
                  <TipIconButton title={t.export} aria-label={`${t.export}: ${row.name}`} onClick={() => downloadBot(toDoc(row))}>
                    <FileDownloadOutlined />
                  </TipIconButton>
                ),
              },
            ]}
          />
        </Paper>
      ) : null}
    </>
  );
}
