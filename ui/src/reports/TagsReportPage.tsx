import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { texts } from '../i18n/ptBR';
import { listsApi, useReportFilters } from './reportsApi';
import { FilterBar, PageTitle, QueryState } from './ReportParts';
import { ExportMenu, ScheduledExports } from './ExportMenu';

const t = texts.reportPages;

/** SPEC §2 tags report (/reports/tags): each tag and how many times it was used in the period. */
export default function TagsReportPage() {
  const [filters, setFilters] = useReportFilters();
  const q = useQuery({ queryKey: ['reports', 'tags', filters], queryFn: ({ signal }) => listsApi.tags(filters, signal), placeholderData: keepPreviousData });
  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 } }}>
      <PageTitle action={<ExportMenu kind="tags" filters={filters} />}>{t.tags}</PageTitle>
      <FilterBar filters={filters} onChange={setFilters} showFrequency={false} showMode={false} only={['channels', 'groups', 'agents']} />
      <ScheduledExports kind="tags" />
      <QueryState isPending={q.isPending} error={q.error} retry={() => void q.refetch()} />
      {q.data && q.data.length === 0 && <Typography data-testid="report-empty">{t.noTags}</Typography>}
      {q.data && q.data.length > 0 && (
        <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="tags-table">
            <TableHead>
              <TableRow>
                <TableCell>{t.tagColumns.name}</TableCell>
                <TableCell>{t.tagColumns.used}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {q.data.map((tag) => (
                <TableRow key={tag.id} data-testid="tag-row">
                  <TableCell>
                    <Chip size="small" label={tag.name} sx={{ bgcolor: tag.color, color: tag.textColor }} />
                  </TableCell>
                  <TableCell>{tag.used}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Paper>
      )}
    </Box>
  );
}
