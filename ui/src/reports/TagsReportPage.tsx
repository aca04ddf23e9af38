import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { DataTable } from '../common/DataTable';
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
          <DataTable
            data-testid="tags-table"
            rows={q.data}
            rowTestId="tag-row"
            columns={[
              { header: t.tagColumns.name, cell: (tag) => <Chip size="small" label={tag.name} sx={{ bgcolor: tag.color, color: tag.textColor }} /> },
              { header: t.tagColumns.used, cell: (tag) => tag.used },
            ]}
          />
        </Paper>
      )}
    </Box>
  );
}
