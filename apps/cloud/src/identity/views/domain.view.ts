import type { Schema } from '../../platform/db/schema.js';
import { v3Url } from './links.view.js';

export function domainView(d: Schema['domains'], base: string) {
  return {
    id: d.id,
    name: d.name,
    description: d.description,
    enabled: d.enabled === 1,
    tags: [] as string[],
    options: {},
    links: { self: v3Url(base, `domains/${d.id}`) },
  };
}
