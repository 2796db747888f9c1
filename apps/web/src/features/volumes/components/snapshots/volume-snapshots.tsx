import type { Volume } from '@sv/shared';
import { useId, useState } from 'react';
import { Button } from '../../../../components/ui/button';
import { EmptyState } from '../../../../components/ui/empty-state';
import { ErrorMessage } from '../../../../components/ui/error-message';
import { Loading } from '../../../../components/ui/spinner';
import { useVolumeSnapshots } from '../../api/snapshots';
import { CreateSnapshotDialog, snapshotBlock } from './create-snapshot-dialog';
import { SnapshotsTable } from './snapshots-table';

/** The volume page's Snapshots section: its snapshots, and taking a new one. */
export function VolumeSnapshots({ volume: v, onNotice }: { volume: Volume; onNotice: (n: string) => void }) {
  const reasonId = useId();
  const snapshots = useVolumeSnapshots(v.id);
  const [creating, setCreating] = useState(false);
  const blocked = snapshotBlock(v);
  const label = v.name || v.id;

  return (
    <section aria-labelledby="snapshots-title" className="space-y-2">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="snapshots-title" className="mr-auto text-lg font-semibold">
          Snapshots{' '}
          {snapshots.data && <span className="font-normal text-slate-600">({snapshots.data.length})</span>}
        </h2>
        <Button
          onClick={() => setCreating(true)}
          disabled={blocked !== null}
          aria-describedby={blocked ? reasonId : undefined}
        >
          Create snapshot
        </Button>
      </div>
      {blocked && (
        <p id={reasonId} className="text-right text-sm text-slate-700">
          Snapshot: {blocked}
        </p>
      )}
      {snapshots.isPending ? (
        <Loading label="Loading the snapshots…" />
      ) : snapshots.isError ? (
        <ErrorMessage error={snapshots.error} />
      ) : snapshots.data.length === 0 ? (
        <EmptyState title="No snapshots of this volume">
          A snapshot keeps the volume's data as it is now; make a new volume from it later.
        </EmptyState>
      ) : (
        <SnapshotsTable
          caption={`Snapshots of volume ${label}`}
          snapshots={snapshots.data}
          onNotice={onNotice}
        />
      )}
      {creating && (
        <CreateSnapshotDialog
          volume={v}
          onClose={() => setCreating(false)}
          onCreated={(s) => onNotice(`Creating snapshot ${s.name}. Its status updates here.`)}
        />
      )}
    </section>
  );
}
