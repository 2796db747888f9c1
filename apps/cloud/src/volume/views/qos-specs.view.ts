import type { QosSpecsRecord } from '../store/qos-specs.store.js';

/** views/qos_specs.py `detail`'s inner object: what list items are too. */
export const qosSpecsSummary = (s: QosSpecsRecord) => ({
  id: s.id,
  name: s.name,
  consumer: s.consumer,
  specs: s.specs,
});

/** `detail`: the spec set and its self and bookmark links under the caller's project. */
export function qosSpecsDetail(s: QosSpecsRecord, root: { api: string; bookmark: string }) {
  return {
    qos_specs: qosSpecsSummary(s),
    links: [
      { rel: 'self', href: `${root.api}/qos-specs/${s.id}` },
      { rel: 'bookmark', href: `${root.bookmark}/qos-specs/${s.id}` },
    ],
  };
}

export function qosSpecsListView(specs: QosSpecsRecord[], links: { rel: 'next'; href: string }[]) {
  return {
    qos_specs: specs.map(qosSpecsSummary),
    ...(links.length > 0 ? { qos_specs_links: links } : {}),
  };
}
