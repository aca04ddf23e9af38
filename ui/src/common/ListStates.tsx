import type { ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { DataTable, type DataColumn } from './DataTable';
import { errorDescriptions } from '../providers/httpClient';
import { Loading, RetryAlert } from '../inbox/loadStates';

/** What ListStates reads of a list page's query (react-query's result of GET /x answering `{data, matchCount}`). */
interface ListQuery<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: { data: T[]; matchCount: number } | undefined;
  refetch: () => unknown;
}

interface Props<T> {
  list: ListQuery<T>;
  /** Names the empty box and the count for tests: `{testId}-empty`, `{testId}-count`. */
  testId: string;
  loadError: string;
  empty: string;
  /** Shown under `empty` when nothing narrows the list (no search, filter or tab). */
  emptyHelp?: string;
  /** The count of matches above the rows ('1 contrato', '12 contratos'). */
  count: (n: number) => string;
  /** The rows of the page (a table, or cards on a phone) and its pager. */
  children: (rows: T[], matchCount: number) => ReactNode;
}

/**
 * The states of a list page, one way on every page: a spinner while the first page loads, what failed with
 * 'Tentar novamente', the empty text, else the count of matches above the rows.
 */
export function ListStates<T>({ list, testId, loadError, empty, emptyHelp, count, children }: Props<T>) {
  if (list.isPending) return <Loading />;
  if (list.isError || !list.data) return <RetryAlert onRetry={list.refetch}>{[loadError, ...errorDescriptions(list.error)].join(' ')}</RetryAlert>;
  const { data: rows, matchCount } = list.data;
  if (rows.length === 0) {
    return (
      <Box data-testid={`${testId}-empty`} sx={{ py: 4, textAlign: 'center' }}>
        <Typography fontWeight={600}>{empty}</Typography>
        {emptyHelp ? <Typography color="text.secondary">{emptyHelp}</Typography> : null}
      </Box>
    );
  }
  return (
    <>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid={`${testId}-count`}>
        {count(matchCount)}
      </Typography>
      {children(rows, matchCount)}
    </>
  );
}

/** A list page's rows as cards, on a phone (where a table would not fit): a plain list, one card an item. */
export function CardList({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <Box component="ul" sx={{ m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1 }} data-testid={testId}>
      {children}
    </Box>
  );
}

/**
 * A list page's rows as a table, on a desktop: a click anywhere on a row opens `linkTo(row)`; put a RowLink in
 * a column so the keyboard and screen readers reach it too.
 */
export function LinkedTable<Row extends { id: number }>({ rows, columns, linkTo, testId, rowTestId }: { rows: Row[]; columns: DataColumn<Row>[]; linkTo: (row: Row) => string; testId: string; rowTestId: string }) {
  const navigate = useNavigate();
  return (
    <Paper variant="outlined" sx={{ overflowX: 'auto' }}>
      <DataTable data-testid={testId} rows={rows} rowTestId={rowTestId} rowProps={(row) => ({ hover: true, sx: { cursor: 'pointer' }, onClick: () => void navigate(linkTo(row)) })} columns={columns} />
    </Paper>
  );
}

/** The link of a LinkedTable's row (its name): the row's own click is not repeated. */
export function RowLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <RouterLink to={to} onClick={(e) => e.stopPropagation()} style={{ color: 'inherit', fontWeight: 600 }}>
      {children}
    </RouterLink>
  );
}
