import type { Caller } from '../service/caller.js';
import { visibleSpecs } from '../service/types.service.js';
import type { VolumeTypeRecord } from '../store/types.store.js';

const ACCESS_KEY = 'os-volume-type-access:is_public';

/**
 * views/types.py `show` (captures 03, 281, 285, 287). The volume_type_access extension adds
 * `os-volume-type-access:is_public` to list, show-by-id and create, but not to `GET
 * /types/default` (it finds no cached type under the id "default") nor to update.
 */
export function typeView(
  caller: Caller,
  t: VolumeTypeRecord,
  opts: { accessKey: boolean; qosKey?: boolean },
) {
  return {
    id: t.id,
    name: t.name,
    is_public: t.is_public === 1,
    description: t.description,
    extra_specs: visibleSpecs(caller, t.extraSpecs),
    // views/types.py shows qos_specs_id to admins (the QoS policy) when reading a stored type:
    // list, show and default; the create and update answers lack it.
    ...(opts.qosKey && caller.isAdmin ? { qos_specs_id: t.qosSpecsId } : {}),
    ...(opts.accessKey ? { [ACCESS_KEY]: t.is_public === 1 } : {}),
  };
}

export function typeListView(
  caller: Caller,
  types: VolumeTypeRecord[],
  links: { rel: 'next'; href: string }[],
) {
  return {
    volume_types: types.map((t) => typeView(caller, t, { accessKey: true, qosKey: true })),
    ...(links.length > 0 ? { volume_type_links: links } : {}),
  };
}
