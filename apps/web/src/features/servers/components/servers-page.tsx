import type { Session } from '@sv/shared';
import { Link, useSearchParams } from 'react-router';
import { buttonClass } from '../../../components/ui/button';
import { ServersTable } from './servers-table';

export function ServersPage({ session }: { session: Session }) {
  const [params] = useSearchParams();
  const wide = session.isAdmin && (params.get('all') === '1' || params.has('project'));
  return (
    <section aria-labelledby="servers-title" className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <div className="mr-auto">
          <h1 id="servers-title" className="text-2xl font-semibold">
            Servers
          </h1>
          <p className="text-sm text-slate-600">
            {wide ? 'Across projects.' : `Servers in project ${session.project.name}.`}
          </p>
        </div>
        <Link to="/launch" className={buttonClass('primary')}>
          Launch servers
        </Link>
      </div>
      <ServersTable session={session} />
    </section>
  );
}
