import type { AttachMode } from '@sv/shared';
import type { ReactNode } from 'react';
import { Spinner } from './spinner';
import { type StatusTone, statusTone } from './status';

export type BadgeTone = 'slate' | 'green' | 'blue' | 'amber' | 'red' | 'violet';

// Text colours are 800-level on 50/100 backgrounds so every pair passes WCAG AA.
const tones: Record<BadgeTone, string> = {
  slate: 'bg-slate-100 text-slate-800 ring-slate-300',
  green: 'bg-green-50 text-green-800 ring-green-300',
  blue: 'bg-blue-50 text-blue-800 ring-blue-300',
  amber: 'bg-amber-50 text-amber-900 ring-amber-300',
  red: 'bg-red-50 text-red-800 ring-red-300',
  violet: 'bg-violet-50 text-violet-800 ring-violet-300',
};

export function Badge({
  tone = 'slate',
  children,
  title,
  className = '',
}: {
  tone?: BadgeTone;
  children: ReactNode;
  title?: string;
  className?: string;
}) {
  return (
    <span
      title={title}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-medium ring-1 ring-inset ${tones[tone]} ${className}`}
    >
      {children}
    </span>
  );
}

const statusTones: Record<StatusTone, BadgeTone> = {
  ok: 'green',
  info: 'blue',
  busy: 'amber',
  error: 'red',
  neutral: 'slate',
};

/** A volume, server or attachment status; in-progress states spin. */
export function StatusBadge({ status }: { status: string }) {
  const tone = statusTone(status);
  return (
    <Badge tone={statusTones[tone]}>
      {tone === 'busy' && <Spinner size="sm" />}
      {status}
    </Badge>
  );
}

/**
 * Read-write vs read-only. Differs by text, icon and fill (not colour alone):
 * RW is solid and marked with a pen, RO is outlined and marked with a lock.
 */
export function ModeBadge({ mode, long = false }: { mode: AttachMode; long?: boolean }) {
  const rw = mode === 'rw';
  const full = rw ? 'read-write' : 'read-only';
  return (
    <span
      title={full}
      className={`inline-flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-0.5 text-xs font-semibold ${
        rw ? 'bg-orange-700 text-white' : 'bg-white text-sky-900 ring-1 ring-inset ring-sky-700'
      }`}
    >
      {rw ? <PenIcon /> : <LockIcon />}
      {long ? (
        full
      ) : (
        <>
          <span aria-hidden="true">{rw ? 'RW' : 'RO'}</span>
          <span className="sr-only">{full}</span>
        </>
      )}
    </span>
  );
}

/** Marks a multiattach volume (or volume type). */
export function SharedBadge({ title = 'Shared (multiattach): can be attached to several servers' }) {
  return (
    <Badge tone="violet" title={title}>
      <SharedIcon />
      Shared
    </Badge>
  );
}

const iconProps = {
  viewBox: '0 0 16 16',
  className: 'h-3 w-3 shrink-0',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
} as const;

function PenIcon() {
  return (
    <svg aria-hidden="true" {...iconProps}>
      <path d="M11 2.5l2.5 2.5L6 12.5H3.5V10z" strokeLinejoin="round" />
    </svg>
  );
}

function LockIcon() {
  return (
    <svg aria-hidden="true" {...iconProps}>
      <rect x="3" y="7" width="10" height="7" rx="1" />
      <path d="M5.5 7V5a2.5 2.5 0 015 0v2" />
    </svg>
  );
}

function SharedIcon() {
  return (
    <svg aria-hidden="true" {...iconProps}>
      <rect x="2" y="5" width="7" height="7" rx="1" />
      <rect x="7" y="2" width="7" height="7" rx="1" />
    </svg>
  );
}
