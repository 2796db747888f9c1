import type { ProjectRef, Topology } from '@sv/shared';
import { useMemo, useRef } from 'react';

export interface FilterOption {
  id: string;
  label: string;
}
export interface FilterOptions {
  projects: FilterOption[];
  hosts: FilterOption[];
  volumes: FilterOption[];
}

const sorted = (m: Map<string, string>) =>
  [...m].map(([id, label]) => ({ id, label })).sort((a, b) => a.label.localeCompare(b.label));

/**
 * Choices for the filter menus. They accumulate over the answers seen on this page, so narrowing to
 * one host does not empty the host menu (the first, unfiltered answer usually lists everything).
 */
export function useFilterOptions(
  topology: Topology | undefined,
  projects: readonly ProjectRef[],
): FilterOptions {
  const seen = useRef({
    projects: new Map<string, string>(),
    hosts: new Map<string, string>(),
    volumes: new Map<string, string>(),
  });
  return useMemo(() => {
    const s = seen.current;
    // Names from the answer (an admin sees every project's) win over the session's own projects.
    const projectName = new Map([...projects, ...(topology?.projects ?? [])].map((p) => [p.id, p.name]));
    const addProject = (id: string | null) => {
      // A name learnt later replaces an id shown earlier.
      if (id && (!s.projects.has(id) || projectName.has(id))) s.projects.set(id, projectName.get(id) ?? id);
    };
    for (const p of projects) s.projects.set(p.id, p.name);
    for (const p of topology?.projects ?? []) s.projects.set(p.id, p.name);
    if (topology) {
      for (const h of topology.hosts) s.hosts.set(h.id, h.name);
      for (const v of topology.volumes) {
        s.volumes.set(v.id, v.name ? `${v.name} (${v.id.slice(0, 8)})` : v.id);
        addProject(v.projectId);
      }
      for (const sv of topology.servers) addProject(sv.projectId);
    }
    return { projects: sorted(s.projects), hosts: sorted(s.hosts), volumes: sorted(s.volumes) };
  }, [topology, projects]);
}
