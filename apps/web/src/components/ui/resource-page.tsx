import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ApiRequestError } from '../../lib/api-client';
import { EmptyState } from './empty-state';
import { ErrorMessage } from './error-message';

export const linkClass =
  'font-medium text-blue-800 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-blue-700';

/** Where a detail page sits: its list, then the resource. */
export interface ResourceTrail {
  /** `Volumes`, `Servers`. */
  list: string;
  listPath: string;
}

export function Breadcrumb({ trail, name }: { trail: ResourceTrail; name: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
      <Link to={trail.listPath} className={linkClass}>
        {trail.list}
      </Link>
      <span aria-hidden="true" className="mx-1.5">
        /
      </span>
      <span aria-current="page">{name}</span>
    </nav>
  );
}

/**
 * A detail page whose resource could not be loaded: "does not exist" for a 404 (the page keeps an
 * h1), the error with a retry otherwise.
 */
export function ResourceLoadFailed({
  trail,
  kind,
  id,
  error,
  onRetry,
}: {
  trail: ResourceTrail;
  /** `volume`, `server`. */
  kind: string;
  id: string;
  error: Error;
  onRetry: () => void;
}): ReactNode {
  const missing = error instanceof ApiRequestError && error.status === 404;
  return (
    <div className="space-y-4">
      <Breadcrumb trail={trail} name={id} />
      {missing ? (
        <EmptyState
          heading="h1"
          title={`This ${kind} does not exist`}
          action={
            <Link to={trail.listPath} className={linkClass}>
              Back to {trail.list.toLowerCase()}
            </Link>
          }
        >
          It may have been deleted.
        </EmptyState>
      ) : (
        <ErrorMessage title={`The ${kind} could not be loaded`} error={error} onRetry={onRetry} />
      )}
    </div>
  );
}

/** One fact of a resource's summary (inside a `<dl>`). */
export function DetailItem({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-slate-900">{children}</dd>
    </div>
  );
}
