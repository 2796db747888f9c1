/** A decorative spinner; pair it with text (Loading does). */
export function Spinner({ size = 'md' }: { size?: 'sm' | 'md' }) {
  const dim = size === 'sm' ? 'h-3.5 w-3.5' : 'h-5 w-5';
  return (
    <span
      aria-hidden="true"
      className={`inline-block ${dim} animate-spin rounded-full border-2 border-current border-r-transparent align-[-0.125em]`}
    />
  );
}

/** A polite "still loading" status line. */
export function Loading({ label = 'Loading…', className = '' }: { label?: string; className?: string }) {
  return (
    <p role="status" className={`flex items-center gap-2 py-6 text-sm text-slate-600 ${className}`}>
      <Spinner />
      {label}
    </p>
  );
}
