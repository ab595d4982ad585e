// Medians, percentiles and number formatting shared by the bench parts.

/** Median of the finite numbers in xs, or null. */
export function median(xs) {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/** Nearest-rank percentile (q in 0..1) of the finite numbers in xs, or null. */
export function percentile(xs, q) {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  return v[Math.min(v.length - 1, Math.max(0, Math.ceil(q * v.length) - 1))];
}

/** "min..max" of the finite numbers in xs (the spread next to a median). */
export function spread(xs, digits = 1) {
  const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x));
  if (v.length < 2) return '';
  return `${fmt(Math.min(...v), digits)}..${fmt(Math.max(...v), digits)}`;
}

export function fmt(x, digits = 1) {
  if (x == null || !Number.isFinite(x)) return '-';
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
