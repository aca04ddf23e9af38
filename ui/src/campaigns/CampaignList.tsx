import { useState } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useNotify } from 'react-admin';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import Add from '@mui/icons-material/Add';
import Download from '@mui/icons-material/Download';
import Edit from '@mui/icons-material/Edit';
import Visibility from '@mui/icons-material/Visibility';
import { CampaignNameSchema } from '../../../api/campaigns/schema';
import { texts } from '../i18n/ptBR';
import { errorDescriptions, HttpError } from '../providers/httpClient';
import { campaignKeys, campaignsApi, type Campaign } from './campaignsApi';
import { CampaignProgress } from './CampaignProgress';
import { downloadCampaignReport } from './download';
import { applyCampaign } from './live';
import { PlanNotice, useCampaignPlanRefusal } from './PlanNotice';
import { StatusBadge } from './StatusBadge';
import { campaignTexts as t } from './texts';
import { TablePager } from '../common/TablePager';

/** SPEC §9: tables show 20 rows a page. */
export const CAMPAIGN_PAGE_SIZE = 20;

/** The pager's buttons in pt-BR. */
export const pageAriaLabel = (type: 'first' | 'last' | 'next' | 'previous') => t.pages[type];

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso)) : '';

/** Edit: only the name (SPEC §5); 'Campanha alterada.' */
function EditNameDialog({ campaign, onClose }: { campaign: Campaign; onClose: () => void }) {
  const qc = useQueryClient();
  const notify = useNotify();
  const [name, setName] = useState(campaign.name);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    const parsed = CampaignNameSchema.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? '');
    setSaving(true);
    try {
      applyCampaign(qc, await campaignsApi.save(campaign.id, { name: parsed.data }));
      notify(t.toasts.updated, { type: 'success' });
      onClose();
    } catch (err) {
      if (err instanceof HttpError && err.fieldErrors.name) setError(err.fieldErrors.name);
      else for (const m of errorDescriptions(err)) notify(m, { type: 'error' });
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="campaign-edit-title">
      <DialogTitle id="campaign-edit-title">{t.editDialog.title}</DialogTitle>
      <DialogContent>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t.editDialog.onlyName}
        </Typography>
        <TextField
          autoFocus
          fullWidth
          label={t.editDialog.name}
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setError('');
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void save();
          }}
          error={!!error}
          helperText={error}
          slotProps={{ htmlInput: { maxLength: 120 } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t.editDialog.cancel}</Button>
        <Button variant="contained" onClick={() => void save()} disabled={saving}>
          {t.editDialog.save}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** SPEC §2 /campaigns: name, start, channel, 'x / total', completion %, status; new, edit, view, report. */
export function CampaignList() {
  const navigate = useNavigate();
  const notify = useNotify();
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<Campaign | null>(null);
  const { data, error, isPending, isFetching } = useQuery({
    queryKey: campaignKeys.list(page),
    queryFn: ({ signal }) => campaignsApi.list(page, CAMPAIGN_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });
  const refusal = useCampaignPlanRefusal();
  const download = async (c: Campaign) => {
    try {
      await downloadCampaignReport(c.id);
      notify(t.toasts.downloaded, { type: 'success' });
    } catch (err) {
      for (const m of errorDescriptions(err)) notify(m, { type: 'error' });
    }
  };
  return (
    <Box sx={{ p: 3 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2 }}>
        <Typography variant="h5" component="h1" fontWeight={700} sx={{ flex: 1 }}>
          {t.title}
        </Typography>
        {/* A plan without campaigns: the button is off, the notice below says why and where to change it. */}
        <Button component={RouterLink} to="/campaigns/new" variant="contained" startIcon={<Add />} disabled={!!refusal}>
          {t.new}
        </Button>
      </Box>
      {refusal ? <PlanNotice refusal={refusal} /> : null}
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {isPending || isFetching ? <LinearProgress aria-label={texts.common.loading} /> : null}
      {data && data.total === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, maxWidth: 720 }}>
          <Typography>{refusal ? t.empty : <RouterLink to="/campaigns/new">{t.empty}</RouterLink>}</Typography>
        </Paper>
      ) : null}
      {data && data.total > 0 ? (
        <Paper variant="outlined">
          <Table aria-label={t.title} size="small">
            <TableHead>
              <TableRow>
                {[t.columns.name, t.columns.start, t.columns.channel, t.columns.sent, t.columns.completion, t.columns.status, t.columns.actions].map((l) => (
                  <TableCell key={l}>{l}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.data.map((c) => (
                <TableRow key={c.id} hover data-testid="campaign-row" data-id={c.id}>
                  <TableCell>
                    <RouterLink to={`/campaigns/${c.id}`}>{c.name}</RouterLink>
                  </TableCell>
                  <TableCell>{formatDateTime(c.executionDate ?? c.createdAt)}</TableCell>
                  <TableCell>{t.channelWhatsapp}</TableCell>
                  <CampaignProgress campaign={c} variant="cells" />
                  <TableCell>
                    <StatusBadge status={c.status} />
                  </TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t.actions.edit}>
                      <IconButton size="small" aria-label={t.actions.edit} onClick={() => setEditing(c)}>
                        <Edit fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t.actions.view}>
                      <IconButton size="small" aria-label={t.actions.view} onClick={() => void navigate(`/campaigns/${c.id}`)}>
                        <Visibility fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    <Tooltip title={t.actions.download}>
                      <IconButton size="small" aria-label={t.actions.download} onClick={() => void download(c)}>
                        <Download fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePager count={data.total} page={page} pageSize={CAMPAIGN_PAGE_SIZE} onPageChange={setPage} buttonLabel={pageAriaLabel} />
        </Paper>
      ) : null}
      {editing ? <EditNameDialog campaign={editing} onClose={() => setEditing(null)} /> : null}
    </Box>
  );
}
