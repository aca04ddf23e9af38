import TablePagination from '@mui/material/TablePagination';

type PagerButton = 'first' | 'last' | 'next' | 'previous';

/** The pager under a server-paged table of fixed page size (SPEC §9); nothing while one page holds every row. */
export function TablePager({
  count,
  page,
  pageSize,
  onPageChange,
  buttonLabel,
}: {
  count: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** The buttons' names (MUI's English ones otherwise). */
  buttonLabel?: (button: PagerButton) => string;
}) {
  if (count <= pageSize) return null;
  return (
    <TablePagination
      component="div"
      count={count}
      page={page}
      rowsPerPage={pageSize}
      rowsPerPageOptions={[pageSize]}
      onPageChange={(_, p) => onPageChange(p)}
      labelDisplayedRows={({ from, to, count: all }) => `${from}–${to} de ${all}`}
      getItemAriaLabel={buttonLabel}
    />
  );
}
