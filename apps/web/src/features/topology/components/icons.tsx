const base = {
  viewBox: '0 0 16 16',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.6,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

type IconProps = { className?: string };

export function WarningIcon({ className = 'h-3.5 w-3.5' }: IconProps) {
  return (
    <svg aria-hidden="true" {...base} className={`shrink-0 ${className}`}>
      <path d="M8 1.8L15 14H1z" />
      <path d="M8 6v3.6M8 11.6v.1" />
    </svg>
  );
}

export function ClockIcon({ className = 'h-3.5 w-3.5' }: IconProps) {
  return (
    <svg aria-hidden="true" {...base} className={`shrink-0 ${className}`}>
      <circle cx="8" cy="8" r="6.2" />
      <path d="M8 4.5V8l2.4 1.6" />
    </svg>
  );
}

export function ServerIcon({ className = 'h-4 w-4' }: IconProps) {
  return (
    <svg aria-hidden="true" {...base} className={`shrink-0 ${className}`}>
      <rect x="2" y="2.5" width="12" height="4.5" rx="1" />
      <rect x="2" y="9" width="12" height="4.5" rx="1" />
      <path d="M4.5 4.75h.1M4.5 11.25h.1" />
    </svg>
  );
}

export function VolumeIcon({ className = 'h-4 w-4' }: IconProps) {
  return (
    <svg aria-hidden="true" {...base} className={`shrink-0 ${className}`}>
      <ellipse cx="8" cy="3.5" rx="5.5" ry="2" />
      <path d="M2.5 3.5v9c0 1.1 2.5 2 5.5 2s5.5-.9 5.5-2v-9" />
      <path d="M2.5 8c0 1.1 2.5 2 5.5 2s5.5-.9 5.5-2" />
    </svg>
  );
}

export function HostIcon({ className = 'h-4 w-4' }: IconProps) {
  return (
    <svg aria-hidden="true" {...base} className={`shrink-0 ${className}`}>
      <rect x="1.5" y="2" width="13" height="9" rx="1" />
      <path d="M5.5 14h5M8 11v3" />
    </svg>
  );
}

/** Points right when folded, down when open. */
export function ChevronIcon({ open, className = 'h-4 w-4' }: IconProps & { open: boolean }) {
  return (
    <svg
      aria-hidden="true"
      {...base}
      className={`shrink-0 transition-transform ${open ? 'rotate-90' : ''} ${className}`}
    >
      <path d="M6 3.5L10.5 8 6 12.5" />
    </svg>
  );
}
