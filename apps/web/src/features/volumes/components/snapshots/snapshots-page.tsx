import type { Session } from '@sv/shared';
import { Link } from 'react-router';
import { AllProjectsToggle, useAllProjectsParam } from '../../../../components/ui/all-projects-toggle';
import { EmptyState } from '../../../../components/ui/empty-state';
import { ErrorMessage } from '../../../../components/ui/error-message';
import { linkClass } from '../../../../components/ui/resource-page';
import { Loading } from '../../../../components/ui/spinner';
import { useNotice } from '../../../../lib/use-notice';
import { useProjectSnapshots } from '../../api/snapshots';
import { SnapshotsTable } from './snapshots-table';

/** Every snapshot of the project (an admin's: of every project, on request). */
export function SnapshotsPage({ session }: { session: Session }) {
  const [all, setAll] = useAllProjectsParam(session.isAdmin);
  const snapshots = useProjectSnapshots(all);
  const [notice, setNotice] = useNotice();

  return (
    <section aria-labelledby="snapshots-page-title" className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="mr-auto">
          <h1 id="snapshots-page-title" className="text-2xl font-semibold">
            Snapshots
          </h1>
          <p className="text-sm text-slate-600">
            {all ? 'Across projects.' : `Volume snapshots in project ${session.project.name}.`}
          </p>
        </div>
        {session.isAdmin && <AllProjectsToggle checked={all} onChange={setAll} />}
      </div>

      <p role="status" className={notice ? 'rounded bg-green-50 p-2 text-sm text-green-900' : 'sr-only'}>
        {notice}
      </p>

      {snapshots.isPending ? (
        <Loading label="Loading the snapshots…" />
      ) : snapshots.isError ? (
        <ErrorMessage error={snapshots.error} />
      ) : snapshots.data.length === 0 ? (
        <EmptyState title="No snapshots yet">
          Take one from a volume's page (
          <Link to="/volumes" className={linkClass}>
            Volumes
          </Link>
          ).
        </EmptyState>
      ) : (
        <SnapshotsTable
          caption={all ? 'Snapshots in every project' : `Snapshots in project ${session.project.name}`}
          snapshots={snapshots.data}
          showVolume
          showProject={all}
          onNotice={setNotice}
        />
      )}
    </section>
  );
}
