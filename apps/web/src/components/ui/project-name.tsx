import { useProjectNames } from '../../lib/use-project-names';

/** A project by its name (the id's start while names load, or when the user may not see it). */
export function ProjectName({ id }: { id: string | null }) {
  const { nameOf } = useProjectNames();
  return <span title={id ?? undefined}>{nameOf(id)}</span>;
}
