// Small charts drawn with CSS (no chart library): each keeps its numbers where a screen
// reader finds them (a label per bar, or the numbers in the table itself).
import type { AdminOverviewBucket } from '../../../contract/admin';
import { formatBucket, formatCount } from './format';

export type Series = { label: string; value: (bucket: AdminOverviewBucket) => number; format?: (n: number) => string };

/**
 * Columns over time (the last 24 hours by hour, 30 days by day) for one series: a list of bars drawn
 * with CSS, each with its time and number in words for screen readers.
 */
export function TimeBars({
  buckets,
  by,
  series,
}: {
  buckets: readonly AdminOverviewBucket[];
  by: 'hour' | 'day';
  series: Series;
}) {
  const values = buckets.map(series.value);
  const max = Math.max(1, ...values);
  const total = values.reduce((sum, n) => sum + n, 0);
  const format = series.format ?? formatCount;
  return (
    <figure className="pp-admin__chart">
      <figcaption>
        <span>{series.label}</span>
        <strong className="pp-tabular">{format(total)}</strong>
      </figcaption>
      <ol className="pp-admin__time-bars" aria-label={`${series.label} by ${by}`}>
        {buckets.map((bucket, i) => {
          const value = values[i] ?? 0;
          return (
            <li key={bucket.start}>
              <span className="pp-visually-hidden">
                {formatBucket(bucket.start, by)}: {format(value)}
              </span>
              {/* At least a sliver for any count above zero, so that one sign-up shows. */}
              <span
                className="pp-admin__time-bar"
                data-zero={value === 0 || undefined}
                style={{ height: `${value === 0 ? 0 : Math.max(4, (value / max) * 100)}%` }}
                aria-hidden="true"
              />
            </li>
          );
        })}
      </ol>
      <div className="pp-admin__chart-axis" aria-hidden="true">
        <span>{buckets[0] ? formatBucket(buckets[0].start, by) : ''}</span>
        <span>{by === 'hour' ? 'now' : 'today'}</span>
      </div>
    </figure>
  );
}

export type Share = { key: string; label: string; value: number; display?: string };

/** A ranking as a table: each row's name, its number and a bar as long as its share of the largest. */
export function ShareBars({ label, rows, unit }: { label: string; rows: readonly Share[]; unit: string }) {
  if (rows.length === 0) return <p className="pp-admin__empty">None.</p>;
  const max = Math.max(1, ...rows.map((row) => row.value));
  return (
    <table className="pp-admin__shares" aria-label={label}>
      <thead className="pp-visually-hidden">
        <tr>
          <th scope="col">Name</th>
          <th scope="col">{unit}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <th scope="row">
              <span className="pp-admin__share-name">{row.label}</span>
              <span className="pp-admin__share-track" aria-hidden="true">
                <span className="pp-admin__share-bar" style={{ width: `${(row.value / max) * 100}%` }} />
              </span>
            </th>
            <td className="pp-admin__num">{row.display ?? formatCount(row.value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
