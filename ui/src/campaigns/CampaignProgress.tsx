import Paper from '@mui/material/Paper';
import TableCell from '@mui/material/TableCell';
import Typography from '@mui/material/Typography';
import { completionPercent, type Campaign } from './campaignsApi';
import { campaignTexts } from './texts';

type Progress = Pick<Campaign, 'totalNumbers' | 'totalNumbersExecuted'>;

/** SPEC §2/§9: 'x / total' handled and the completion % (floor of x/total×100, a total of 0 divides by 1). */
export function progressOf(c: Progress): { sent: string; completion: number } {
  return { sent: `${c.totalNumbersExecuted} / ${c.totalNumbers}`, completion: completionPercent(c.totalNumbersExecuted, c.totalNumbers) };
}

/** One figure of the detail view: a label over a big value. */
export function Counter({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, minWidth: 140, flex: '1 1 140px' }}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="h5" data-testid={testId}>
        {value}
      </Typography>
    </Paper>
  );
}

/**
 * A campaign's progress, the same figures on both screens: the list's 'Enviadas' and 'Conclusão' cells, or
 * the detail view's two counters. Both update live (the campaign in the query cache is merged with
 * `campaign.status` events).
 */
export function CampaignProgress({ campaign, variant }: { campaign: Progress; variant: 'cells' | 'counters' }) {
  const { sent, completion } = progressOf(campaign);
  if (variant === 'cells') {
    return (
      <>
        <TableCell data-testid="campaign-sent">{sent}</TableCell>
        <TableCell data-testid="campaign-completion">{`${completion}%`}</TableCell>
      </>
    );
  }
  const t = campaignTexts.detail.counters;
  return (
    <>
      <Counter label={t.executed} value={sent} testId="campaign-executed" />
      <Counter label={t.completion} value={`${completion}%`} testId="campaign-detail-completion" />
    </>
  );
}
