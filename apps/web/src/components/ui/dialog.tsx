import {
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useRef,
} from 'react';
import { createPortal } from 'react-dom';
import { Button } from './button';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

const focusables = (root: HTMLElement) =>
  Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.hasAttribute('inert'));

export interface DialogProps {
  open: boolean;
  /** Called on Escape, on the close button and on a backdrop click (unless `busy`). */
  onClose: () => void;
  title: ReactNode;
  /** A line under the title; becomes the dialog's accessible description. */
  description?: ReactNode;
  children: ReactNode;
  /** Buttons row at the bottom (put the primary action last). */
  footer?: ReactNode;
  /** What gets focus when the dialog opens; defaults to the first focusable element in the body. */
  initialFocus?: RefObject<HTMLElement | null>;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** While true, Escape and the backdrop do not close (a request is running). */
  busy?: boolean;
  /**
   * Makes body and footer one <form> (noValidate: the form shows its own errors), so a
   * submit button in the footer submits it.
   */
  onSubmit?: (e: FormEvent<HTMLFormElement>) => void;
  /**
   * False for a dialog the user must answer (signing in again): no close button, and Escape and
   * the backdrop do nothing. The footer then carries the ways out.
   */
  dismissible?: boolean;
}

const widths = { sm: 'max-w-md', md: 'max-w-xl', lg: 'max-w-3xl', xl: 'max-w-5xl' };

/**
 * An accessible modal: labelled by its title, traps Tab inside, closes on Escape, and gives
 * focus back to whatever opened it.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  initialFocus,
  size = 'md',
  busy = false,
  onSubmit,
  dismissible = true,
}: DialogProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const descId = useId();
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const root = panel.current;
    if (root) {
      const body = root.querySelector<HTMLElement>('[data-dialog-body]');
      const target = initialFocus?.current ?? (body && focusables(body)[0]) ?? focusables(root)[0] ?? root;
      target.focus();
    }
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      // Give focus back to the opener, if it is still on the page.
      if (opener?.isConnected) opener.focus();
    };
  }, [open, initialFocus]);

  if (!open) return null;

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      if (!busy && dismissible) closeRef.current();
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    const items = focusables(panel.current);
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) {
      e.preventDefault();
      return;
    }
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const content = (
    <>
      <div data-dialog-body className="max-h-[70vh] overflow-y-auto px-5 py-4">
        {children}
      </div>
      {footer && (
        <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 bg-slate-50 px-5 py-3">
          {footer}
        </div>
      )}
    </>
  );

  return createPortal(
    <div className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-slate-900/50 p-4 sm:pt-16">
      {/* The backdrop is a plain click target; keyboard users close with Escape or the button. */}
      <div className="fixed inset-0" aria-hidden="true" onClick={() => !busy && dismissible && onClose()} />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descId : undefined}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        className={`relative w-full ${widths[size]} rounded-lg bg-white shadow-xl focus:outline-none`}
      >
        <div className="flex items-start gap-4 border-b border-slate-200 px-5 py-4">
          <div className="min-w-0 flex-1">
            <h2 id={titleId} className="text-lg font-semibold text-slate-900">
              {title}
            </h2>
            {description && (
              <p id={descId} className="mt-0.5 text-sm text-slate-600">
                {description}
              </p>
            )}
          </div>
          {dismissible && (
            <button
              type="button"
              onClick={onClose}
              disabled={busy}
              aria-label="Close"
              className="rounded p-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-blue-700 disabled:opacity-50"
            >
              <svg
                aria-hidden="true"
                viewBox="0 0 16 16"
                className="h-4 w-4"
                stroke="currentColor"
                strokeWidth={2}
              >
                <path d="M4 4l8 8M12 4l-8 8" />
              </svg>
            </button>
          )}
        </div>
        {onSubmit ? (
          <form noValidate onSubmit={onSubmit}>
            {content}
          </form>
        ) : (
          content
        )}
      </div>
    </div>,
    document.body,
  );
}

/**
 * "Are you sure?" for destructive actions. Shows the action's error inline and stays open
 * until it succeeds or the user cancels.
 */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  children,
  confirmLabel,
  pending = false,
  error,
  tone = 'danger',
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  pending?: boolean;
  /** An error from the last attempt, shown inside the dialog. */
  error?: ReactNode;
  tone?: 'danger' | 'primary';
}) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      size="sm"
      busy={pending}
      // Cancel first: a stray Enter must not destroy anything.
      initialFocus={cancelRef}
      footer={
        <>
          <Button ref={cancelRef} onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button variant={tone} onClick={onConfirm} loading={pending}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      <div className="space-y-3 text-sm text-slate-800">
        {children}
        {error}
      </div>
    </Dialog>
  );
}
