import type { ProjectRow } from '../store/projects.store.js';
import { v3Url } from './links.view.js';

/** A project as Keystone shows it (capture 82); top-level projects name their domain as parent. */
export function projectView(p: ProjectRow, base: string) {
  return {
    id: p.id,
    name: p.name,
    domain_id: p.domain_id,
    description: p.description,
    enabled: p.enabled === 1,
    parent_id: p.parent_id ?? p.domain_id,
    is_domain: false,
    tags: [] as string[],
    options: {},
    links: { self: v3Url(base, `projects/${p.id}`) },
  };
}
