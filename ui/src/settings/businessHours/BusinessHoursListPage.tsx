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
import { WEEK_DAYS } from '../../../../api/businessHours/week';
import { texts } from '../../i18n/ptBR';
import { errorDescriptions } from '../../providers/httpClient';
import { businessHoursApi, businessHoursKey, type BusinessHoursRow } from './businessHoursApi';

const t = texts.businessHours;

const activeDays = (row: BusinessHoursRow) =>
  WEEK_DAYS.filter((d) => row.days[d]?.active)
    .map((d) => t.days[d].slice(0, 3))
    .join(', ');

/** /settings/business-hours: the workspace's schedules; a row opens its editor. */
export function BusinessHoursListPage() {
  const navigate = useNavigate();
  const { data, error, isPending } = useQuery({ queryKey: businessHoursKey, queryFn: businessHoursApi.list });
  const open = (row: BusinessHoursRow) => void navigate(`/settings/business-hours/${row.id}`);
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, maxWidth: 960 }}>
        <Typography variant="h5" component="h1" fontWeight={700} sx={{ flex: 1 }}>
          {t.title}
        </Typography>
        <Button component={RouterLink} to="/settings/business-hours/new" variant="contained" startIcon={<Add />}>
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
                <TableCell>{t.columns.days}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((row) => (
                <TableRow key={row.id} hover tabIndex={0} sx={{ cursor: 'pointer' }} onClick={() => open(row)} onKeyDown={(e) => e.key === 'Enter' && open(row)}>
                  <TableCell>{row.name}</TableCell>
                  <TableCell>{activeDays(row)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      ) : null}
    </>
  );
}
