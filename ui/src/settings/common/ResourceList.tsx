import type { KeyboardEvent, ReactNode, SyntheticEvent } from 'react';
import Alert from '@mui/material/Alert';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { Theme } from '@mui/material/styles';
import Add from '@mui/icons-material/Add';
import { texts } from '../../i18n/ptBR';
import { errorDescriptions } from '../../providers/httpClient';
import { DataTable, keepFromRow, type DataColumn } from '../../common/DataTable';
import { TablePager } from '../../common/TablePager';

/** SPEC §9: tables show 20 rows a page. */
export const PAGE_SIZE = 20;

export interface ResourceColumn<Row> {
  label: string;
  render: (row: Row) => ReactNode;
  /** Full text for the cell's tooltip when `render` truncates. */
  title?: (row: Row) => string | undefined;
  /** The cell holds its own control (a switch): clicking it does not open the row. */
  interactive?: boolean;
}

/** A list page's 'new' action when the new item has a page of its own: a link ('Adicionar canal'). */
export function NewItemLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Button component={RouterLink} to={to} variant="contained" startIcon={<Add />}>
      {children}
    </Button>
  );
}

/**
 * A settings list page: title with its action ('new'), the error, the loading bar, the empty text and the
 * table whose rows open on click or Enter (a card per row on a phone), paged by 20 when the list is longer.
 */
export function ResourceList<Row extends { id: number }>({
  title,
  action,
  empty,
  columns,
  rows,
  total,
  page = 0,
  onPageChange,
  onOpen,
  error,
  loading,
}: {
  title: string;
  action?: ReactNode;
  /** A text, or a whole element of its own (the channels' first run). */
  empty: ReactNode;
  columns: ResourceColumn<Row>[];
  /** undefined while the first page loads. */
  rows: Row[] | undefined;
  total: number;
  page?: number;
  onPageChange?: (page: number) => void;
  onOpen: (row: Row) => void;
  error?: unknown;
  loading?: boolean;
}) {
  // Below 600 px each row is a card of its own (label above value), so no column squeezes a word in two.
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));
  const openOnEnter = (row: Row) => (e: KeyboardEvent) => {
    if (e.key === 'Enter' && e.target === e.currentTarget) onOpen(row);
  };
  const stopIfInteractive = (c: ResourceColumn<Row>) => (c.interactive ? (e: SyntheticEvent) => e.stopPropagation() : undefined);
  return (
    <>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mb: 2, maxWidth: 960 }}>
        <Typography variant="h5" component="h1" fontWeight={700} sx={{ flex: 1 }}>
          {title}
        </Typography>
        {action}
      </Box>
      {error ? <Alert severity="error">{errorDescriptions(error).join(' ')}</Alert> : null}
      {loading ? <LinearProgress aria-label={texts.common.loading} sx={{ maxWidth: 960 }} /> : null}
      {rows && total === 0 && typeof empty !== 'string' ? empty : null}
      {rows && total === 0 && typeof empty === 'string' ? (
        <Paper variant="outlined" sx={{ p: 4, maxWidth: 720 }}>
          <Typography>{empty}</Typography>
        </Paper>
      ) : null}
      {rows && total > 0 && phone ? (
        <Box role="list" aria-label={title} data-testid="resource-cards">
          {rows.map((row) => (
            <Paper key={row.id} role="listitem" variant="outlined" tabIndex={0} onClick={() => onOpen(row)} onKeyDown={openOnEnter(row)} sx={{ p: 1.5, mb: 1, cursor: 'pointer', display: 'grid', gap: 1 }}>
              {columns.map((c) => (
                <Box key={c.label} title={c.title?.(row)} onClick={stopIfInteractive(c)} onKeyDown={stopIfInteractive(c)} sx={{ overflowWrap: 'anywhere' }}>
                  <Typography variant="caption" color="text.secondary" component="div">
                    {c.label}
                  </Typography>
                  {c.render(row)}
                </Box>
              ))}
            </Paper>
          ))}
          {onPageChange ? <TablePager count={total} page={page} pageSize={PAGE_SIZE} onPageChange={onPageChange} /> : null}
        </Box>
      ) : null}
      {rows && total > 0 && !phone ? (
        <Paper variant="outlined" sx={{ maxWidth: 960, overflowX: 'auto' }}>
          {/* On a phone a long value (a plugin's URL, an e-mail) wraps inside its cell instead of pushing the table off screen. */}
          <DataTable
            size="medium"
            aria-label={title}
            sx={{ '& td': { overflowWrap: 'anywhere' } }}
            rows={rows}
            rowProps={(row) => ({ hover: true, tabIndex: 0, sx: { cursor: 'pointer' }, onClick: () => onOpen(row), onKeyDown: openOnEnter(row) })}
            columns={columns.map((c): DataColumn<Row> => ({ header: c.label, cell: c.render, cellProps: (row) => ({ title: c.title?.(row), ...(c.interactive ? keepFromRow : {}) }) }))}
          />
          {onPageChange ? <TablePager count={total} page={page} pageSize={PAGE_SIZE} onPageChange={onPageChange} /> : null}
        </Paper>
      ) : null}
    </>
  );
}
