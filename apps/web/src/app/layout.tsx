import type { Session } from '@sv/shared';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { ConnectionBanner } from '../components/ui/connection-banner';
import { useLogout, useSwitchProject } from '../features/auth/api';
import { useLiveUpdates } from '../features/live-updates/use-live-updates';
import { useConnectivityWatch } from '../lib/use-connectivity';
import { listPathFor } from './list-path';

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded px-3 py-2 text-sm font-medium ${isActive ? 'bg-blue-50 text-blue-800' : 'text-slate-700 hover:bg-slate-100'}`;

/** The frame of every signed-in page: who and where you are, and the main sections. */
export function Layout({ session }: { session: Session }) {
  const logout = useLogout();
  const switchProject = useSwitchProject();
  const navigate = useNavigate();
  const location = useLocation();
  // A detail page shows a resource of the old project: after a switch, its list (of the new one).
  const changeProject = (projectId: string) =>
    switchProject.mutate(projectId, {
      onSuccess: () => {
        const list = listPathFor(location.pathname);
        if (list) navigate(list);
      },
    });
  useLiveUpdates();
  useConnectivityWatch();
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-4 px-4 py-3">
          <span className="text-lg font-semibold">Shared volumes</span>
          <nav aria-label="Main" className="flex flex-wrap gap-1">
            <NavLink to="/volumes" className={navClass}>
              Volumes
            </NavLink>
            <NavLink to="/snapshots" className={navClass}>
              Snapshots
            </NavLink>
            <NavLink to="/servers" className={navClass}>
              Servers
            </NavLink>
            <NavLink to="/launch" className={navClass}>
              Launch
            </NavLink>
            <NavLink to="/launches" end className={navClass}>
              Launches
            </NavLink>
            <NavLink to="/topology" className={navClass}>
              Topology
            </NavLink>
          </nav>
          <div className="ml-auto flex flex-wrap items-center gap-3 text-sm">
            <label htmlFor="project-switcher" className="text-slate-600">
              Project
            </label>
            <select
              id="project-switcher"
              className="rounded border border-slate-300 px-2 py-1"
              value={session.project.id}
              disabled={switchProject.isPending || session.projects.length < 2}
              onChange={(e) => changeProject(e.target.value)}
            >
              {session.projects.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
            <span>
              <span className="sr-only">Signed in as </span>
              <span className="font-medium">{session.user.name}</span>
              {session.isAdmin && (
                <span className="ml-1 rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900">admin</span>
              )}
            </span>
            <button
              type="button"
              onClick={() => logout.mutate()}
              className="rounded border border-slate-300 px-3 py-1 hover:bg-slate-100"
            >
              Sign out
            </button>
          </div>
        </div>
      </header>
      <ConnectionBanner />
      <main className="mx-auto max-w-7xl px-4 py-6">
        <Outlet />
      </main>
    </div>
  );
}
