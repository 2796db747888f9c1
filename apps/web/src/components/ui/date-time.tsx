const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A timestamp in the reader's locale, with the exact ISO value for machines and tooltips. */
export function DateTime({ value, fallback = '—' }: { value: string | null | undefined; fallback?: string }) {
  if (!value) return <span className="text-slate-600">{fallback}</span>;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return <span>{value}</span>;
  return (
    <time dateTime={value} title={value}>
      {format.format(date)}
    </time>
  );
}
