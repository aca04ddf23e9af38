import { useState } from 'react';
import { Link as RouterLink, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import FileUpload from '@mui/icons-material/FileUpload';
import { CONTRACTS_PAGE_SIZE } from '../../../api/contracts/schema';
import { contractTypeName, maskCpf } from '../../../api/contracts/catalog';
import { CardList, LinkedTable, ListStates, RowLink } from '../common/ListStates';
import { TablePager } from '../common/TablePager';
import { useDebounced } from '../common/useDebounced';
import { format } from '../i18n/format';
import { formatDateTime } from '../inbox/contact/formatDate';
import { CONTRACT_TABS, useContracts, type ContractFilters, type ContractRow, type ContractTab } from './contractsApi';
import { ContractDetailDialog } from './ContractDetailDialog';
import { ImportContractDialog } from './ImportContractDialog';
import { StatusChip } from './StatusChip';
import { useContractsLive } from './useContractsLive';
import { contractTexts } from './texts';

const t = contractTexts;
const TAB_LABELS: Record<ContractTab, string> = { all: t.tabs.all, pending: t.tabs.pending, done: t.tabs.done };

type UrlFilters = Omit<ContractFilters, 'query'>;

/**
 * The tab, period and page live in the URL (?tab, from, to, page), so a detail opened and closed, or a link
 * shared, shows the same view; the search text stays in the page (it changes with every key).
 */
function useListState() {
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const filters: UrlFilters = {
    tab: CONTRACT_TABS.some((x) => x.value === tabParam) ? (tabParam as ContractTab) : 'all',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  };
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const set = (patch: Partial<UrlFilters> & { page?: number }) => {
    const next = { ...filters, page: 0, ...patch };
    const out = new URLSearchParams();
    if (next.tab !== 'all') out.set('tab', next.tab);
    if (next.from) out.set('from', next.from);
    if (next.to) out.set('to', next.to);
    if (next.page) out.set('page', String(next.page));
    setParams(out, { replace: true });
  };
  return { filters, page, set };
}

function ContractCard({ row, to }: { row: ContractRow; to: string }) {
  return (
    <Card variant="outlined" component="li" data-testid="contract-row" sx={{ listStyle: 'none' }}>
      <CardActionArea component={RouterLink} to={to} sx={{ p: 1.5, display: 'block', minHeight: 44 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', justifyContent: 'space-between' }}>
          <Typography fontWeight={600} sx={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {row.name}
          </Typography>
          <StatusChip status={row.status} />
        </Box>
        <Typography variant="body2" color="text.secondary">
          {[row.loanNumber, maskCpf(row.cpf), contractTypeName(row.code)].filter(Boolean).join(' · ')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {formatDateTime(row.createdAt)}
        </Typography>
      </CardActionArea>
    </Card>
  );
}

function ContractTable({ rows, linkTo }: { rows: ContractRow[]; linkTo: (row: ContractRow) => string }) {
  return (
    <LinkedTable
      testId="contracts-table"
      rows={rows}
      rowTestId="contract-row"
      linkTo={linkTo}
      columns={[
        {
          header: t.columns.name,
          cell: (row) => <RowLink to={linkTo(row)}>{row.name}</RowLink>,
          cellProps: () => ({ sx: { overflowWrap: 'anywhere', minWidth: 160 } }),
        },
        { header: t.columns.loanNumber, cell: (row) => row.loanNumber ?? '', cellProps: () => ({ sx: { whiteSpace: 'nowrap' } }) },
        { header: t.columns.cpf, cell: (row) => maskCpf(row.cpf), cellProps: () => ({ sx: { whiteSpace: 'nowrap' } }) },
        { header: t.columns.type, cell: (row) => contractTypeName(row.code) },
        { header: t.columns.status, cell: (row) => <StatusChip status={row.status} /> },
        { header: t.columns.createdAt, cell: (row) => formatDateTime(row.createdAt), cellProps: () => ({ sx: { whiteSpace: 'nowrap' } }) },
        { header: t.columns.formalized, cell: (row) => formatDateTime(row.formalized), cellProps: () => ({ sx: { whiteSpace: 'nowrap' } }) },
      ]}
    />
  );
}

/**
 * /contracts/{id?} and /contract/{id} (SPEC §2 Contracts, leftover; docs/contracts.md): the table with its
 * search, tabs and period, 'Importar Contrato', and the detail modal of the contract in the path.
 */
export default function ContractsPage() {
  useContractsLive();
  const { id } = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const { filters, page, set } = useListState();
  const [importing, setImporting] = useState(false);
  // The search box answers at once; the list follows after the debounce (SPEC §9: 500 ms).
  const [typed, setTyped] = useState('');
  const query = useDebounced(typed);
  // An 'Até' before the 'De' is told at the field, not sent (the api would refuse it with the same words).
  const reversed = Boolean(filters.from && filters.to && filters.to < filters.from);
  const list = useContracts({ ...filters, query }, page, !reversed);
  const linkTo = (row: ContractRow) => `/contracts/${row.id}${search}`;
  const detailId = id !== undefined && /^\d{1,10}$/.test(id) ? Number(id) : undefined;
  const filtered = Boolean(typed || filters.from || filters.to);

  return (
    <Box sx={{ p: { xs: 1.5, sm: 3 }, maxWidth: 1200, mx: 'auto' }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
        <Typography component="h1" variant="h5" fontWeight={700} sx={{ flex: 1 }}>
          {t.title}
        </Typography>
        <Button variant="contained" startIcon={<FileUpload />} onClick={() => setImporting(true)} data-testid="contracts-import" sx={{ minHeight: 40 }}>
          {t.importButton}
        </Button>
      </Box>
      <Tabs value={filters.tab} onChange={(_, tab: ContractTab) => set({ tab })} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile aria-label={t.tabs.label} sx={{ mb: 2 }}>
        {CONTRACT_TABS.map((tab) => (
          <Tab key={tab.value} value={tab.value} label={TAB_LABELS[tab.value]} />
        ))}
      </Tabs>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={1.5} sx={{ mb: 2 }} useFlexGap flexWrap="wrap">
        <TextField size="small" type="search" label={t.search} value={typed} onChange={(e) => {
            setTyped(e.target.value);
            if (page) set({});
          }} sx={{ minWidth: { md: 340 } }} slotProps={{ htmlInput: { 'data-testid': 'contracts-search' } }} />
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography component="legend" variant="body2" sx={{ float: 'left', mr: 1 }}>
            {t.period}
          </Typography>
          <TextField size="small" type="date" label={t.from} value={filters.from} onChange={(e) => set({ from: e.target.value })} slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'contracts-from' } }} />
          <TextField
            size="small"
            type="date"
            label={t.to}
            value={filters.to}
            onChange={(e) => set({ to: e.target.value })}
            error={reversed}
            helperText={reversed ? t.periodReversed : undefined}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'contracts-to' } }}
          />
        </Box>
        {filtered ? (
          <Button
            size="small"
            onClick={() => {
              setTyped('');
              set({ from: '', to: '' });
            }}
          >
            {t.clearFilters}
          </Button>
        ) : null}
      </Stack>
      {reversed ? null : (
        <ListStates
        list={list}
        testId="contracts"
        loadError={t.loadError}
        empty={t.empty}
        emptyHelp={!filtered && filters.tab === 'all' ? t.emptyHelp : undefined}
        count={(n) => (n === 1 ? t.countOne : format(t.count, { count: n }))}
      >
        {(rows, matchCount) => (
          <>
            {phone ? (
              <CardList testId="contracts-cards">
                {rows.map((row) => (
                  <ContractCard key={row.id} row={row} to={linkTo(row)} />
                ))}
              </CardList>
            ) : (
              <ContractTable rows={rows} linkTo={linkTo} />
            )}
            <TablePager count={matchCount} page={page} pageSize={CONTRACTS_PAGE_SIZE} onPageChange={(p) => set({ page: p })} buttonLabel={(b) => t.pager[b]} />
          </>
        )}
      </ListStates>
      )}
      {importing ? <ImportContractDialog onClose={() => setImporting(false)} /> : null}
      {detailId !== undefined ? <ContractDetailDialog key={detailId} id={detailId} onClose={() => void navigate(`/contracts${search}`)} /> : null}
    </Box>
  );
}
