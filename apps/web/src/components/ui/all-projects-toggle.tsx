import { useSearchParams } from 'react-router';

/** An admin's "every project" view, kept in the URL (?all=1) so it survives reloads and links. */
export function useAllProjectsParam(isAdmin: boolean): [boolean, (on: boolean) => void] {
  const [params, setParams] = useSearchParams();
  const all = isAdmin && params.get('all') === '1';
  const setAll = (on: boolean) =>
    setParams(
      (p) => {
        if (on) p.set('all', '1');
        else p.delete('all');
        return p;
      },
      { replace: true },
    );
  return [all, setAll];
}

/** The switch itself; render it for admins only. */
export function AllProjectsToggle({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm font-medium text-slate-800">
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        aria-checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="h-4 w-4 accent-blue-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
      />
      All projects
    </label>
  );
}
