import type { Key, ReactNode } from 'react';
import Table, { type TableProps } from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell, { type TableCellProps } from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow, { type TableRowProps } from '@mui/material/TableRow';

export interface DataColumn<Row> {
  /** The header cell; none for a column of row actions. */
  header?: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Both cells of the column (a number column to the right). */
  align?: TableCellProps['align'];
  /** The body cell's own props: `sx`, a `title`, a click that must not reach the row. */
  cellProps?: (row: Row) => TableCellProps;
}

/** A click or key on a cell that holds its own control (a switch, a button) does not open the row. */
export const keepFromRow: TableCellProps = { onClick: (e) => e.stopPropagation(), onKeyDown: (e) => e.stopPropagation() };

/**
 * A table of rows with a header row, one column definition for both: the lists, reports and logs of the app
 * share it. Rows are keyed by their `id` unless `rowKey` says otherwise; `rowTestId` names every body row for
 * the tests and `rowProps` gives one its hover and click; the table's own props (aria-label, data-testid, sx; `size`, small unless given) pass
 * through.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey = (row) => (row as { id: Key }).id,
  rowProps,
  rowTestId,
  size = 'small',
  ...table
}: {
  columns: (DataColumn<Row> | false)[];
  rows: readonly Row[];
  rowKey?: (row: Row) => Key;
  rowProps?: (row: Row) => TableRowProps & { [data: `data-${string}`]: unknown };
  /** Every body row's data-testid. */
  rowTestId?: string;
} & TableProps & { 'data-testid'?: string }) {
  // `false` leaves out a column that shows only sometimes (a drill-down's time).
  const shown = columns.filter((c): c is DataColumn<Row> => c !== false);
  return (
    <Table size={size} {...table}>
      <TableHead>
        <TableRow>
          {shown.map((c, i) => (
            <TableCell key={i} align={c.align}>
              {c.header}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={rowKey(row)} data-testid={rowTestId} {...rowProps?.(row)}>
            {shown.map((c, i) => (
              <TableCell key={i} align={c.align} {...c.cellProps?.(row)}>
                {c.cell(row)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
