/**
 * A sparkline: a small inline SVG line of a series (net sales per day), for the eye only. It is
 * hidden from assistive technology and holds nothing focusable; the row's figures are in the
 * table's other cells.
 */

export function Sparkline({
  values,
  width = 96,
  height = 28,
}: {
  values: readonly number[];
  width?: number;
  height?: number;
}) {
  if (values.length === 0) return null;
  const max = Math.max(...values);
  const min = Math.min(0, ...values);
  const span = max - min || 1;
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  const points = values
    .map((v, i) => `${(i * step).toFixed(1)},${(height - 2 - ((v - min) / span) * (height - 4)).toFixed(1)}`)
    .join(' ');
  return (
    <svg
      className="kpi-sparkline"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      aria-hidden="true"
      focusable="false"
    >
      <polyline points={points} fill="none" stroke="var(--c-primary)" strokeWidth="1.5" />
    </svg>
  );
}
