import { type ReactNode, useEffect, useState } from 'react';
import { ApiRequestError } from '../../lib/api-client';

/** The words to show for any thrown error: the BFF's message when it sent one. */
export function errorText(error: unknown): string {
  if (error instanceof ApiRequestError) return error.message;
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}

/** The id of the failed request, for people to quote: it leads to the BFF's and the cloud's log lines. */
export function requestIdOf(error: unknown): string | null {
  return error instanceof ApiRequestError && error.requestId ? error.requestId : null;
}

/** The request id in small selectable type, with a button that copies it where the browser allows. */
export function RequestId({ id }: { id: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 2_000);
    return () => clearTimeout(t);
  }, [copied]);
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  return (
    <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-red-800">
      <span>Request ID</span>
      <code className="select-all break-all rounded bg-white/70 px-1 font-mono">{id}</code>
      {clipboard && (
        <button
          type="button"
          onClick={() =>
            void clipboard.writeText(id).then(
              () => setCopied(true),
              () => undefined,
            )
          }
          className="rounded border border-red-300 bg-white px-1.5 py-0.5 font-medium text-red-800 hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-700"
        >
          {copied ? 'Copied' : 'Copy'}
          <span className="sr-only"> the request ID</span>
        </button>
      )}
    </p>
  );
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
  const requestId = requestIdOf(error);
  return (
    <div
      role="alert"
      className={`rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800 ${className}`}
    >
      {title && <p className="font-semibold">{title}</p>}
      {error !== undefined && <p>{errorText(error)}</p>}
      {children}
      {requestId && <RequestId id={requestId} />}
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
