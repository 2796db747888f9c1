import type { Volume } from '@sv/shared';
import { ModeBadge, SharedBadge, StatusBadge } from '../../../components/ui/badge';

/** Name, shared marker and id of a volume, for the pickers' first column. */
export function VolumeName({ volume }: { volume: Volume }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2 gap-y-0.5">
      <span className="font-medium text-slate-900">{volume.name || volume.id}</span>
      {volume.shared && <SharedBadge />}
    </span>
  );
}

const SHOWN = 3;

/** Who holds the volume now, in which mode: what a shared volume's pickers must show. */
export function VolumeHolders({ volume }: { volume: Volume }) {
  if (volume.attachments.length === 0) return <span className="text-slate-600">No server</span>;
  // Writers first: they are what the two-writers risk is about. Long lists are summed up.
  const sorted = [...volume.attachments].sort((a, b) => Number(a.mode === 'ro') - Number(b.mode === 'ro'));
  const shown = sorted.slice(0, SHOWN);
  const rest = sorted.slice(SHOWN);
  const restRw = rest.filter((a) => a.mode === 'rw').length;
  return (
    <ul className="space-y-0.5">
      {shown.map((a) => (
        <li key={a.attachmentId ?? a.serverId} className="flex items-center gap-1.5">
          <ModeBadge mode={a.mode} />
          <span className="truncate">{a.serverName ?? a.serverId}</span>
        </li>
      ))}
      {rest.length > 0 && (
        <li className="text-xs text-slate-700">
          and {rest.length} more (
          {[restRw && `${restRw} read-write`, rest.length - restRw && `${rest.length - restRw} read-only`]
            .filter(Boolean)
            .join(', ')}
          )
        </li>
      )}
    </ul>
  );
}

export function VolumeStatus({ volume }: { volume: Volume }) {
  return <StatusBadge status={volume.status} />;
}
