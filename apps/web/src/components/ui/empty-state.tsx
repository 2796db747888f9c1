import type { ReactNode } from 'react';

/** What to show when a list has nothing in it: what it is, and what to do next. */
export function EmptyState({
  title,
  children,
  action,
  heading = 'p',
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  /** `h1` when the empty state is the whole page (a resource that does not exist), so the page keeps a heading. */
  heading?: 'p' | 'h1' | 'h2';
}) {
  const Title = heading;
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
      <Title className="font-medium text-slate-900">{title}</Title>
      {children && <div className="mt-1 text-sm text-slate-600">{children}</div>}
      {action && <div className="mt-4 flex justify-center gap-2">{action}</div>}
    </div>
  );
}
