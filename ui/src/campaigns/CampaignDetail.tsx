import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink } from 'react-router';
import { Confirm, useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Link from '@mui/material/Link';
import ArrowBack from '@mui/icons-material/ArrowBack';
import AttachFile from '@mui/icons-material/AttachFile';
import Cancel from '@mui/icons-material/Cancel';
import Download from '@mui/icons-material/Download';
import Pause from '@mui/icons-material/Pause';
import PlayArrow from '@mui/icons-material/PlayArrow';
import { texts } from '../i18n/ptBR';
import { format } from '../i18n/format';
import { errorDescriptions } from '../providers/httpClient';
import { campaignKeys, campaignsApi, FINAL_STATUSES, NUMBER_STATUSES, type Campaign, type NumberStatus } from './campaignsApi';
import { CampaignProgress, Counter, progressOf } from './CampaignProgress';
import { campaignBatches, type BatchState } from './batches';
import { formatDateTime, pageAriaLabel } from './CampaignList';
import { downloadCampaignReport } from './download';
import { applyCampaign } from './live';
import { StatusBadge } from './StatusBadge';
import { campaignTexts } from './texts';
import { TablePager } from '../common/TablePager';

const t = campaignTexts.detail;
const NUMBERS_PAGE = 20;
/** The timeline shows at most this many batches around the current one. */
const TIMELINE_MAX = 12;

function Numbers({ campaign }: { campaign: Campaign }) {
  const [status, setStatus] = useState<NumberStatus | ''>('');
  const [page, setPage] = useState(0);
  const { data, error, isFetching } = useQuery({
    queryKey: [...campaignKeys.numbers(campaign.id), status, page],
    queryFn: ({ signal }) => campaignsApi.numbers(campaign.id, status, NUMBERS_PAGE, page * NUMBERS_PAGE, signal),
    placeholderData: keepPreviousData,
  });
  return (
    <Box component="section" aria-label={t.numbers} sx={{ mt: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
          {t.numbers}
        </Typography>
        <TextField
          select
          size="small"
          id="campaign-numbers-filter"
          label={t.filter}
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as NumberStatus | '');
            setPage(0);
          }}
          sx={{ minWidth: 220 }}
        >
          <MenuItem value="">{t.all}</MenuItem>
          {NUMBER_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {`${t.numberStatus[s]} (${data?.counts[s] ?? 0})`}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {isFetching ? <LinearProgress aria-label={texts.common.loading} /> : null}
      {data && data.matchCount === 0 ? <Typography color="text.secondary">{t.noNumbers}</Typography> : null}
      {data && data.matchCount > 0 ? (
        <Paper variant="outlined">
          <Table size="small" aria-label={t.numbers}>
            <TableHead>
              <TableRow>
                {Object.values(t.numberColumns).map((l) => (
                  <TableCell key={l}>{l}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.data.map((n) => (
                <TableRow key={n.id} data-testid="campaign-number" data-status={n.status}>
                  <TableCell>{n.raw}</TableCell>
                  <TableCell>{n.normalized ?? ''}</TableCell>
                  <TableCell>{t.numberStatus[n.status] ?? n.status}</TableCell>
                  <TableCell>{formatDateTime(n.sentAt)}</TableCell>
                  <TableCell>{formatDateTime(n.deliveredAt)}</TableCell>
                  <TableCell>{formatDateTime(n.readAt)}</TableCell>
                  <TableCell>{n.error ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePager count={data.matchCount} page={page} pageSize={NUMBERS_PAGE} onPageChange={setPage} buttonLabel={pageAriaLabel} />
        </Paper>
      ) : null}
    </Box>
  );
}

function Timeline({ campaign }: { campaign: Campaign }) {
  const { total, start, batches: shown } = campaignBatches(campaign, TIMELINE_MAX);
  const colors: Record<BatchState, string> = { done: 'success.main', running: 'primary.main', waiting: 'grey.400', stopped: 'error.light' };
  return (
    <Box component="section" aria-label={t.timeline} sx={{ mt: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {t.timeline}
      </Typography>
      {total === 0 ? <Typography color="text.secondary">{t.noBatches}</Typography> : null}
      <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: 0.5 }}>
        {shown.map((b) => (
          <Box component="li" key={b.n} data-testid="campaign-batch" data-state={b.state} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
            <Box sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: colors[b.state], flex: 'none' }} />
            <Typography variant="body2" sx={{ minWidth: 70, fontWeight: 600 }}>
              {format(t.batch, { n: b.n })}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ minWidth: 160 }}>
              {format(t.batchRange, { from: b.from, to: b.to })}
            </Typography>
            <Typography variant="body2">{t.batchState[b.state]}</Typography>
          </Box>
        ))}
      </Box>
      {total > start + shown.length ? (
        <Typography variant="body2" color="text.secondary">
          {format(t.batchesMore, { n: total - start - shown.length })}
        </Typography>
      ) : null}
    </Box>
  );
}

/** SPEC §2 /campaigns/{id}: counters, numbers by state, batches, pause/resume/cancel, the report. */
export function CampaignDetail({ id }: { id: number }) {
  const qc = useQueryClient();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const { data: c, error, isPending } = useQuery({ queryKey: campaignKeys.one(id), queryFn: ({ signal }) => campaignsApi.get(id, signal) });

  const change = async (status: 'paused' | 'waiting_processing' | 'canceled') => {
    setBusy(true);
    try {
      applyCampaign(qc, await campaignsApi.save(id, { status }));
      // Live events may have overtaken the answer: read the campaign again.
      void qc.invalidateQueries({ queryKey: campaignKeys.one(id) });
      notify(status === 'paused' ? campaignTexts.toasts.paused : status === 'canceled' ? campaignTexts.toasts.canceled : campaignTexts.toasts.resumed, { type: 'success' });
    } catch (err) {
      // SPEC §8, with the server's reason (the plan's limit on resume) beside it.
      const reasons = errorDescriptions(err).join(' ');
      notify(`${campaignTexts.toasts.statusError}: ${reasons}`, { type: 'error' });
      void qc.invalidateQueries({ queryKey: campaignKeys.one(id) });
    } finally {
      setBusy(false);
      setConfirmCancel(false);
    }
  };
  const download = async () => {
    try {
      await downloadCampaignReport(id);
      notify(campaignTexts.toasts.downloaded, { type: 'success' });
    } catch (err) {
      for (const m of errorDescriptions(err)) notify(m, { type: 'error' });
    }
  };

  return (
    <Box sx={{ p: 3 }}>
      <Button component={RouterLink} to="/campaigns" startIcon={<ArrowBack />} sx={{ mb: 1 }}>
        {t.back}
      </Button>
      {isPending ? <LinearProgress aria-label={texts.common.loading} /> : null}
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {c ? (
        <>
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
            <Typography variant="h5" component="h1" fontWeight={700}>
              {c.name}
            </Typography>
            <StatusBadge status={c.status} />
            <Box sx={{ flex: 1 }} />
            {c.status === 'executing' ? (
              <Button variant="outlined" startIcon={<Pause />} disabled={busy} onClick={() => void change('paused')}>
                {t.pause}
              </Button>
            ) : null}
            {c.status === 'paused' ? (
              <Button variant="contained" startIcon={<PlayArrow />} disabled={busy} onClick={() => void change('waiting_processing')}>
                {t.resume}
              </Button>
            ) : null}
            {!FINAL_STATUSES.includes(c.status) ? (
              <Button color="error" startIcon={<Cancel />} disabled={busy} onClick={() => setConfirmCancel(true)}>
                {t.cancel}
              </Button>
            ) : null}
            <Button startIcon={<Download />} onClick={() => void download()}>
              {campaignTexts.actions.download}
            </Button>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
            {format(t.startAt, { date: formatDateTime(c.executionDate ?? c.createdAt) })} ·{' '}
            {format(t.settings, { chunks: c.chunks, between: c.timeBetweenChunks, min: c.initialTimeBetweenMessages, max: c.finalTimeBetweenMessages })}
          </Typography>
          {c.mediaFile ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, mt: 1 }} data-testid="campaign-attachment">
              <AttachFile fontSize="small" aria-hidden />
              <Typography variant="body2" color="text.secondary">
                {`${t.attachment}:`}
              </Typography>
              <Link variant="body2" href={c.mediaFile.url} target="_blank" rel="noopener noreferrer" aria-label={format(t.attachmentOpen, { name: c.mediaFile.fileName })}>
                {c.mediaFile.fileName}
              </Link>
            </Box>
          ) : null}
          {c.status === 'paused' && c.pauseReason ? (
            <Alert severity="warning" sx={{ mt: 2 }} data-testid="campaign-pause-reason">
              {format(t.pauseReason, { reason: c.pauseReason })}
            </Alert>
          ) : null}
          {c.error ? (
            <Alert severity="error" sx={{ mt: 2 }} data-testid="campaign-error">
              {format(t.error, { error: c.error })}
            </Alert>
          ) : null}
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', mt: 2 }}>
            <Counter label={t.counters.total} value={c.totalNumbers} testId="campaign-total" />
            <CampaignProgress campaign={c} variant="counters" />
            <Counter label={t.counters.failed} value={c.totalNumbersFailed} testId="campaign-failed" />
            <Counter label={t.counters.invalid} value={c.totalNumbersInvalid} testId="campaign-invalid" />
          </Box>
          <LinearProgress variant="determinate" value={progressOf(c).completion} sx={{ mt: 2, height: 8, borderRadius: 4 }} aria-label={t.counters.completion} />
          <Timeline campaign={c} />
          <Numbers campaign={c} />
          <Confirm
            isOpen={confirmCancel}
            loading={busy}
            title={t.cancelTitle}
            content={t.cancelText}
            confirm={t.cancelConfirm}
            cancel={t.cancelKeep}
            onConfirm={() => void change('canceled')}
            onClose={() => setConfirmCancel(false)}
          />
        </>
      ) : null}
    </Box>
  );
}
