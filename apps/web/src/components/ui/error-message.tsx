import type { ReactNode } from 'react';
import { ApiRequestError } from '../../lib/api-client';

/** The words to show for any thrown error: the BFF's message when it sent one. */
export function errorText(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

/** An error shown where it happened (role=alert so screen readers hear it at once). */
export function ErrorMessage({
  error,
  title,
  onRetry,
  children,
  className = '',
}: {
  error?: unknown;
  title?: string;
  onRetry?: () => void;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      role="alert"
      className={`rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800 ${className}`}
    >
      {title && <p className="font-semibold">{title}</p>}
      {error !== undefined && <p>{errorText(error)}</p>}
      {children}
      {onRetry && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-2 rounded border border-red-300 bg-white px-2.5 py-1 font-medium text-red-800 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
        >
          Try again
        </button>
      )}
    </div>
  );
}
