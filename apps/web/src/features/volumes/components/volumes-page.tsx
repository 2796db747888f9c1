import type { Session } from '@sv/shared';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { useNotice } from '../../../lib/use-notice';
import { CreateVolumeDialog } from './create-volume-dialog';
import { VolumesTable } from './volumes-table';

export function VolumesPage({ session }: { session: Session }) {
  const [params] = useSearchParams();
  const wide = session.isAdmin && (params.get('all') === '1' || params.has('project'));
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useNotice();

  return (
    <section aria-labelledby="volumes-title" className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="mr-auto">
          <h1 id="volumes-title" className="text-2xl font-semibold">
            Volumes
          </h1>
          <p className="text-sm text-slate-600">
            {wide ? 'Across projects.' : `Block volumes in project ${session.project.name}.`}
          </p>
        </div>
        <Button variant="primary" onClick={() => setCreating(true)}>
          Create volume
        </Button>
      </div>

      <p role="status" className={notice ? 'rounded bg-green-50 p-2 text-sm text-green-900' : 'sr-only'}>
        {notice}
      </p>

      <VolumesTable
        session={session}
        empty={
          <EmptyState
            title="This project has no volumes yet"
            action={
              <Button variant="primary" onClick={() => setCreating(true)}>
                Create volume
              </Button>
            }
          >
            Create a shared (multiattach) volume to attach it to several servers at once.
          </EmptyState>
        }
      />

      <CreateVolumeDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(v) => setNotice(`Creating volume ${v.name}. Its status updates here.`)}
      />
    </section>
  );
}
