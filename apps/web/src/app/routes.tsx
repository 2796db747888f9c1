import type { Session } from '@sv/shared';
import { lazy, Suspense } from 'react';
import { Route } from 'react-router';
import { Loading } from '../components/ui/spinner';
import { AttachVolumeDialog } from '../features/attach-volume/components/attach-volume-dialog';
import { BulkDetachDialog, detachBlock } from '../features/attach-volume/components/bulk-detach-dialog';
import { DetachAttachmentButton } from '../features/attach-volume/components/detach-attachment-button';
import { ServerDetailPage } from '../features/servers/components/server-detail-page';
import { ServersPage } from '../features/servers/components/servers-page';
import { VolumeDetailPage } from '../features/volumes/components/volume-detail-page';
import { VolumesPage } from '../features/volumes/components/volumes-page';
import { SnapshotsPage } from '../features/volumes/components/snapshots/snapshots-page';
import type { AttachmentSlots } from '../lib/attachment-slots';
import { LaunchProgressPage } from '../features/launch/components/launch-progress-page';
import { LaunchWizard } from '../features/launch/components/launch-wizard';
import { LaunchesPage } from '../features/launch/components/launches-page';
import { usePrefetchTopology } from '../features/topology/api/get-topology';

// The volume and server pages show attach/detach UI owned by the attach-volume feature.
const attachmentSlots: AttachmentSlots = {
  AttachDialog: AttachVolumeDialog,
  DetachButton: DetachAttachmentButton,
  // --- web17: bulk detach ---
  BulkDetachDialog,
  detachBlock,
};

// Lazy: React Flow stays out of the sign-in page's JavaScript.
const TopologyPage = lazy(() => import('../features/topology/components/topology-page'));

function TopologyRoute({ session }: { session: Session }) {
  // The topology's request starts now, while the lazy page loads.
  usePrefetchTopology();
  return (
    <Suspense fallback={<Loading label="Loading the topology view…" />}>
      <TopologyPage session={session} />
    </Suspense>
  );
}

/** The signed-in pages. Each feature adds its routes here. */
export function appRoutes(session: Session) {
  return [
    <Route key="volumes" path="volumes" element={<VolumesPage session={session} />} />,
    <Route
      key="volume"
      path="volumes/:id"
      element={<VolumeDetailPage session={session} slots={attachmentSlots} />}
    />,
    <Route key="servers" path="servers" element={<ServersPage session={session} />} />,
    <Route
      key="server"
      path="servers/:id"
      element={<ServerDetailPage session={session} slots={attachmentSlots} />}
    />,
    <Route key="launch" path="launch" element={<LaunchWizard session={session} />} />,
    <Route key="launch-progress" path="launches/:id" element={<LaunchProgressPage />} />,
    <Route key="launches" path="launches" element={<LaunchesPage session={session} />} />,
    <Route key="topology" path="topology" element={<TopologyRoute session={session} />} />,
    // --- web17: snapshots ---
    <Route key="snapshots" path="snapshots" element={<SnapshotsPage session={session} />} />,
  ];
}
