// Every table of the console is one DataTable and its list of columns: a column says its header,
// how its cells lay out and what each row shows in it. The markup, the empty sentence and the
// sideways scroll live here once.
import type { ReactNode } from 'react';
import { formatTime } from './format';

/** How a cell's text lays out: on one line (times), wrapped anywhere (sentences, emails), as code (ids). */
type CellLayout = 'nowrap' | 'wrap' | 'mono';

export type Column<Row> = {
  /** Unique within its table: it keys the column's cells. */
  header: string;
  /** The header is for screen readers only (a column of buttons). */
  hiddenHeader?: boolean;
  /** Right-aligned figures, header and cells. */
  numeric?: boolean;
  layout?: CellLayout;
  cell(row: Row): ReactNode;
  /** Data attributes admin.css colours a cell by (`data-sign`, `data-alert`). */
  marks?(row: Row): Record<`data-${string}`, string | true | undefined>;
};

/** A table but its rows: what one of the console's tables is. */
export type TableSpec<Row> = {
  /** The table's name for screen readers ("Jobs" is read as "Jobs table"). */
  label: string;
  columns: readonly Column<Row>[];
  rowKey(row: Row): string | number;
  /** The sentence shown instead of an empty table. */
  empty: string;
  rowTestId?: string;
};

type Props<Row> = TableSpec<Row> & { rows: readonly Row[] };

const cellClass = ({ numeric, layout }: Pick<Column<unknown>, 'numeric' | 'layout'>) =>
  [numeric ? 'pp-admin__num' : null, layout ? `pp-admin__${layout}` : null].filter(Boolean).join(' ') || undefined;

/**
 * A table that scrolls sideways in its own box on a narrow screen (never the page). The box is
 * focusable so a keyboard can scroll it, and named so a screen reader says what it is.
 */
export function DataTable<Row>({ label, rows, columns, rowKey, empty, rowTestId }: Props<Row>) {
  if (rows.length === 0) return <p className="pp-admin__empty">{empty}</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard
    <section className="pp-admin__scroll" aria-label={`${label} table`} tabIndex={0}>
      <table className="pp-admin__table">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.numeric ? 'pp-admin__num' : undefined}>
                {column.hiddenHeader ? <span className="pp-visually-hidden">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} data-testid={rowTestId}>
              {columns.map((column) => (
                <td key={column.header} className={cellClass(column)} {...column.marks?.(row)}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** A column of times ("Mar 14, 2026, 3:09 PM"; a dash where `at` gives none), kept on one line. */
export const timeColumn = <Row,>(header: string, at: (row: Row) => string | null): Column<Row> => ({
  header,
  layout: 'nowrap',
  cell: (row) => formatTime(at(row)),
});

/** A column of one small button a row, where `offered` (by default every row); its header is unseen. */
export function buttonColumn<Row>({
  text,
  name,
  offered = () => true,
  onClick,
}: {
  text: string;
  /** The button's full name, which says which row it acts on. */
  name(row: Row): string;
  offered?(row: Row): boolean;
  onClick(row: Row): void;
}): Column<Row> {
  return {
    header: 'Action',
    hiddenHeader: true,
    cell: (row) =>
      offered(row) ? (
        <button
          type="button"
          className="pp-button pp-button--secondary pp-admin__small"
          aria-label={name(row)}
          onClick={() => onClick(row)}
        >
          {text}
        </button>
      ) : null,
  };
}

/** A job's or a payment's status as a coloured pill. */
export function StatusPill({ status }: { status: string }) {
  return (
    <span className="pp-admin__status" data-status={status}>
      {status}
    </span>
  );
}
