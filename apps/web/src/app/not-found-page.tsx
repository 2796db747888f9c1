import { Link, useLocation, useNavigate } from 'react-router';
import { Button, buttonClass } from '../components/ui/button';

/** Any address the dashboard has no page for: says so under a heading, with ways back. */
export function NotFoundPage() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <div className="mx-auto max-w-xl space-y-4 py-10 text-center">
      <h1 className="text-2xl font-semibold text-slate-900">Page not found</h1>
      <p className="text-slate-700">
        There is no page at <code className="break-all rounded bg-slate-100 px-1">{location.pathname}</code>.
        The address may be mistyped, or the page may have moved.
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <Button onClick={() => navigate(-1)}>Go back</Button>
        <Link to="/volumes" className={buttonClass('primary')}>
          Volumes
        </Link>
        <Link to="/servers" className={buttonClass('secondary')}>
          Servers
        </Link>
      </div>
    </div>
  );
}
