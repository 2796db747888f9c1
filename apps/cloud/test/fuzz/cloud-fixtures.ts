import { http, login, type Session, type TestCloud } from '../helpers/cloud.js';
import { bootServersViaApi } from '../helpers/compute-fixtures.js';

/**
 * Real resources for the fuzz to aim at, so a request with a good id gets past the lookup and into
 * validation, policy and the state rules. Made through the APIs, as a client would.
 *
 * Identity writes (PATCH/DELETE of users, projects, roles, grants) only ever get the `fuzz-*`
 * resources: disabling `admin` or revoking `demo`'s grant would turn every later request into a 401
 * and the fuzz would stop reaching anything. A DELETE of a whole resource only gets `expendable`
 * ones, made for it, so the resources every other endpoint aims at stay.
 */
export type IdKind =
  | 'domain'
  | 'project'
  | 'user'
  | 'role'
  | 'ownProject'
  | 'server'
  | 'flavor'
  | 'flavorSpecKey'
  | 'hypervisor'
  | 'hypervisorPattern'
  | 'service'
  | 'volume'
  | 'attachment'
  | 'volumeType'
  | 'typeSpecKey'
  | 'image'
  | 'network'
  | 'subnet'
  | 'port'
  | 'securityGroup'
  | 'securityGroupRule'
  | 'extension'
  | 'networkLabel'
  // --- V1: block storage everyday API ---
  | 'snapshot'
  | 'volumeMetadataKey'
  | 'volumeServiceAction'
  // --- C2: tenancy ---
  | 'keypair'
  | 'quotaClass'
  // --- cloud14v: identity catalog ---
  | 'catalogService'
  | 'catalogEndpoint'
  | 'region'
  | 'volumeHost'
  | 'volumeExtension'
  | 'backup'
  // --- cloud15: server groups ---
  | 'serverGroup'
  // --- cloudv2: block storage and flavor gaps ---
  | 'volumeMessage'
  | 'encryptionKey'
  // --- cloud-proxy-hosts: os-hosts, the usage audit log's time, host aggregates ---
  | 'computeHost'
  | 'auditTime'
  | 'aggregate'
  // cloud-qos-transfer: QoS specs and volume transfers
  | 'qosSpecs'
  | 'volumeTransfer'
  // --- cloud-groups: generic volume groups ---
  | 'groupType'
  | 'groupSpecKey'
  | 'volumeGroup'
  | 'groupSnapshot';

export interface CloudFixtures {
  admin: Session;
  member: Session;
  /** Ids a request may read or change. */
  ids: Record<IdKind, string[]>;
  /** Identity ids a PATCH, PUT, POST or DELETE may touch. */
  identityWritable: Partial<Record<IdKind, string[]>>;
  /** Ids a DELETE of the resource itself may remove. */
  expendable: Partial<Record<IdKind, string[]>>;
  fuzzUser: { id: string; name: string; password: string; projectId: string; projectName: string };
  /** A token of the fuzz user: the only one DELETE /v3/auth/tokens may revoke. */
  throwawayToken: string;
  memberServers: string[];
  adminServers: string[];
  memberVolumes: { multiattach: string; plain: string; spare: string };
  adminVolume: string;
  imageId: string;
  /** The seeded networks and the default security groups of the admin's and the member's projects. */
  network: { memberNetwork: string; adminNetwork: string; memberGroup: string; adminGroup: string };
}

async function ok(
  tc: TestCloud,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  version?: string,
  // biome-ignore lint/suspicious/noExplicitAny: fixture set-up reads bodies freely
): Promise<any> {
  const res = await http(tc, method, path, {
    token,
    ...(body !== undefined ? { body } : {}),
    ...(version ? { version } : {}),
  });
  if (res.status >= 300) throw new Error(`fixture ${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

export async function makeFixtures(tc: TestCloud): Promise<CloudFixtures> {
  const admin = await login(tc, 'admin');
  const member = await login(tc, 'demo');
  const a = admin.token;

  // Identity: a project, a user with a member grant on it, a role of its own.
  const project = (await ok(tc, 'POST', '/identity/v3/projects', a, { project: { name: 'fuzz-project' } }))
    .project.id as string;
  const user = (
    await ok(tc, 'POST', '/identity/v3/users', a, {
      user: { name: 'fuzz-user', password: 'fuzz-pass', default_project_id: project },
    })
  ).user.id as string;
  const role = (await ok(tc, 'POST', '/identity/v3/roles', a, { role: { name: 'fuzz-role' } })).role
    .id as string;
  const roles = (await ok(tc, 'GET', '/identity/v3/roles', a)).roles as { id: string; name: string }[];
  const roleId = (name: string) => roles.find((r) => r.name === name)?.id ?? '';
  await ok(tc, 'PUT', `/identity/v3/projects/${project}/users/${user}/roles/${roleId('member')}`, a);
  await ok(tc, 'PUT', `/identity/v3/projects/${project}/users/${user}/roles/${role}`, a);
  const throwaway = await login(tc, 'fuzz-user', { password: 'fuzz-pass', project: 'fuzz-project' });
  const spareOf = async (kind: 'project' | 'user' | 'role', i: number) =>
    (await ok(tc, 'POST', `/identity/v3/${kind}s`, a, { [kind]: { name: `fuzz-spare-${kind}-${i}` } }))[kind]
      .id as string;
  const spareProjects = [await spareOf('project', 1), await spareOf('project', 2)];
  const spareUsers = [await spareOf('user', 1), await spareOf('user', 2)];
  const spareRoles = [await spareOf('role', 1), await spareOf('role', 2)];

  // Compute: servers of each project, a flavor of our own.
  const memberServers = await bootServersViaApi(tc, member, 2, { name: 'fuzz-member' });
  const adminServers = await bootServersViaApi(tc, admin, 1, { name: 'fuzz-admin' });
  const spareServers = [
    ...(await bootServersViaApi(tc, member, 2, { name: 'fuzz-spare' })),
    ...(await bootServersViaApi(tc, admin, 1, { name: 'fuzz-spare' })),
  ];
  const flavor = async (id: string) =>
    ok(
      tc,
      'POST',
      '/compute/v2.1/flavors',
      a,
      { flavor: { name: id, id, ram: 256, vcpus: 1, disk: 1 } },
      'compute 2.60',
    );
  for (const id of ['fuzz-flavor', 'fuzz-spare-1', 'fuzz-spare-2']) await flavor(id);
  const hypervisors = (await ok(tc, 'GET', '/compute/v2.1/os-hypervisors', a, undefined, 'compute 2.60'))
    .hypervisors as { id: string; hypervisor_hostname: string }[];
  type Service = { id: string | number; binary: string };
  const services = [
    ...((await ok(tc, 'GET', '/compute/v2.1/os-services', a, undefined, 'compute 2.60'))
      .services as Service[]),
    ...((await ok(tc, 'GET', '/compute/v2.1/os-services', a, undefined, 'compute 2.52'))
      .services as Service[]),
  ];
  const imageId = (await ok(tc, 'GET', '/image/v2/images', a)).images[0].id as string;

  // Volumes: the member's (one attached through Nova), the admin's, a type of our own.
  const volumeOf = async (s: Session, body: Record<string, unknown>) =>
    (
      await ok(
        tc,
        'POST',
        `${s.volumeBase}/volumes`,
        s.token,
        { volume: { size: 1, ...body } },
        'volume 3.60',
      )
    ).volume.id as string;
  const multiattach = await volumeOf(member, { name: 'fuzz-shared', volume_type: 'multiattach' });
  const plain = await volumeOf(member, { name: 'fuzz-plain' });
  const spare = await volumeOf(member, { name: 'fuzz-spare', volume_type: 'multiattach' });
  const adminVolume = await volumeOf(admin, { name: 'fuzz-admin' });
  const spareVolumes = [
    await volumeOf(member, { name: 'fuzz-spare-1' }),
    await volumeOf(member, { name: 'fuzz-spare-2', volume_type: 'multiattach' }),
    await volumeOf(admin, { name: 'fuzz-spare-3' }),
  ];
  await tc.settle();
  await ok(
    tc,
    'POST',
    `/compute/v2.1/servers/${memberServers[0]}/os-volume_attachments`,
    member.token,
    { volumeAttachment: { volumeId: multiattach } },
    'compute 2.60',
  );
  await tc.settle();
  const attachments = (
    await ok(tc, 'GET', `${member.volumeBase}/attachments`, member.token, undefined, 'volume 3.60')
  ).attachments as { id: string }[];
  // Reservations of the spare multiattach volume, for DELETE /attachments/{id} to remove.
  const spareAttachments: string[] = [];
  for (const server of memberServers) {
    const reserved = await ok(
      tc,
      'POST',
      `${member.volumeBase}/attachments`,
      member.token,
      { attachment: { volume_uuid: spareVolumes[1], instance_uuid: server } },
      'volume 3.60',
    );
    spareAttachments.push(reserved.attachment.id as string);
  }
  const type = (
    await ok(
      tc,
      'POST',
      `${admin.volumeBase}/types`,
      a,
      { volume_type: { name: 'fuzz-type', extra_specs: { fuzz_key: 'fuzz-value' } } },
      'volume 3.60',
    )
  ).volume_type.id as string;
  // --- V1: snapshots of the member's plain volume (and spares to delete), metadata to read ---
  const snapshotOf = async (s: Session, volumeId: string, name: string) =>
    (
      await ok(
        tc,
        'POST',
        `${s.volumeBase}/snapshots`,
        s.token,
        { snapshot: { volume_id: volumeId, name, metadata: { fuzz: 'v' } } },
        'volume 3.60',
      )
    ).snapshot.id as string;
  const snapshots = [
    await snapshotOf(member, plain, 'fuzz-snap'),
    await snapshotOf(admin, adminVolume, 'fuzz-snap-admin'),
  ];
  const spareSnapshots = [
    await snapshotOf(member, plain, 'fuzz-spare-snap-1'),
    await snapshotOf(member, plain, 'fuzz-spare-snap-2'),
  ];
  await ok(tc, 'POST', `${member.volumeBase}/volumes/${plain}/metadata`, member.token, {
    metadata: { fuzz: 'v' },
  });
  await tc.settle();
  const types = (await ok(tc, 'GET', `${admin.volumeBase}/types`, a, undefined, 'volume 3.60'))
    .volume_types as {
    id: string;
  }[];
  const spareTypes: string[] = [];
  for (const name of ['fuzz-spare-type-1', 'fuzz-spare-type-2']) {
    const t = await ok(tc, 'POST', `${admin.volumeBase}/types`, a, { volume_type: { name } }, 'volume 3.60');
    spareTypes.push(t.volume_type.id as string);
  }

  const net = await networkFixtures(tc, admin, member);
  // --- C2: tenancy --- key pairs of the member and the admin, by the same names.
  const FUZZ_KEY =
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICMeyPifz/ERmTjtWa0gNK5Q3Rt63igmcgKP0AQaWKcR fuzz@test';
  for (const s of [member, admin]) {
    for (const name of ['fuzz-key', 'fuzz-spare-key-1', 'fuzz-spare-key-2']) {
      await ok(tc, 'POST', '/compute/v2.1/os-keypairs', s.token, { keypair: { name, public_key: FUZZ_KEY } });
    }
  }

  // --- cloud14v: identity catalog ---
  const catalogServiceIds = (
    (await ok(tc, 'GET', '/identity/v3/services', a)).services as { id: string }[]
  ).map((x) => x.id);
  const catalogEndpointIds = (
    (await ok(tc, 'GET', '/identity/v3/endpoints?interface=public', a)).endpoints as { id: string }[]
  ).map((x) => x.id);
  // --- cloud15: server groups --- one to aim at and two to delete, per session.
  const serverGroups: string[] = [];
  const spareServerGroups: string[] = [];
  for (const s of [member, admin]) {
    for (const [i, list] of [serverGroups, spareServerGroups, spareServerGroups].entries()) {
      const g = await ok(
        tc,
        'POST',
        '/compute/v2.1/os-server-groups',
        s.token,
        {
          server_group: { name: `fuzz-sg-${i}`, policies: ['soft-anti-affinity'] },
        },
        'compute 2.15',
      );
      list.push(g.server_group.id as string);
    }
  }

  // --- cloud-proxy-hosts: host aggregates --- one with a host and a zone to aim at, two to delete.
  const aggregates: string[] = [];
  const spareAggregates: string[] = [];
  for (const [i, list] of [aggregates, spareAggregates, spareAggregates].entries()) {
    const g = await ok(tc, 'POST', '/compute/v2.1/os-aggregates', a, {
      aggregate: { name: `fuzz-agg-${i}`, ...(i === 0 ? { availability_zone: 'fuzz-az' } : {}) },
    });
    list.push(String(g.aggregate.id));
  }
  // --- end cloud-proxy-hosts ---

  // --- cloudv2: Cinder user messages --- per session, one to aim at and one to delete: each the
  // scheduler's message about a volume of a type no backend takes.
  const unplaceable = (
    await ok(tc, 'POST', `${admin.volumeBase}/types`, a, {
      volume_type: { name: 'fuzz-unplaceable', extra_specs: { storage_protocol: 'fuzz-nosuch' } },
    })
  ).volume_type.id as string;
  const messageVolumes = new Map<string, Session>();
  for (const s of [member, member, admin, admin]) {
    const v = await ok(tc, 'POST', `${s.volumeBase}/volumes`, s.token, {
      volume: { size: 1, volume_type: unplaceable },
    });
    messageVolumes.set(v.volume.id as string, s);
  }
  await tc.settle();
  const messages = (await ok(tc, 'GET', `${admin.volumeBase}/messages`, a, undefined, 'volume 3.3'))
    .messages as {
    id: string;
    resource_uuid: string;
  }[];
  const messageIds: string[] = [];
  const spareMessageIds: string[] = [];
  for (const s of [member, admin]) {
    const own = messages.filter((m) => messageVolumes.get(m.resource_uuid) === s).map((m) => m.id);
    messageIds.push(...own.slice(0, 1));
    spareMessageIds.push(...own.slice(1));
  }

  // cloud-qos-transfer: a QoS spec set (and a spare to delete) and a transfer of a volume of its own.
  const qosSpecsId = (
    await ok(tc, 'POST', `${admin.volumeBase}/qos-specs`, a, {
      qos_specs: { name: 'fuzz-qos', read_iops_sec: '100' },
    })
  ).qos_specs.id as string;
  const spareQosSpecsId = (
    await ok(tc, 'POST', `${admin.volumeBase}/qos-specs`, a, { qos_specs: { name: 'fuzz-qos-spare' } })
  ).qos_specs.id as string;
  const transferVolume = await ok(tc, 'POST', `${member.volumeBase}/volumes`, member.token, {
    volume: { size: 1, name: 'fuzz-transfer' },
  });
  await tc.settle();
  const transferId = (
    await ok(tc, 'POST', `${member.volumeBase}/os-volume-transfer`, member.token, {
      transfer: { volume_id: transferVolume.volume.id },
    })
  ).transfer.id as string;
  // A service with an endpoint and a region of the fuzz's to change, and spares to delete.
  const catalogWritable = {
    catalogService: [] as string[],
    catalogEndpoint: [] as string[],
    region: [] as string[],
  };
  const catalogExpendable = {
    catalogService: [] as string[],
    catalogEndpoint: [] as string[],
    region: [] as string[],
  };
  for (const into of [catalogWritable, catalogExpendable, catalogExpendable]) {
    const svc = (await ok(tc, 'POST', '/identity/v3/services', a, { service: { type: 'fuzz-type' } })).service
      .id;
    const ep = (
      await ok(tc, 'POST', '/identity/v3/endpoints', a, {
        endpoint: { service_id: svc, interface: 'public', url: 'http://fuzz.example/' },
      })
    ).endpoint.id;
    const region = (await ok(tc, 'POST', '/identity/v3/regions', a, { region: {} })).region.id;
    into.catalogService.push(svc);
    into.catalogEndpoint.push(ep);
    into.region.push(region);
  }
  // --- end cloud-qos-transfer ---
  // --- cloud-groups: a group type, groups with a volume each, a group snapshot, and spares ---
  const groups = await groupFixtures(tc, admin, member);

  return {
    admin,
    member,
    ids: {
      domain: ['default'],
      project: [project, member.projectId, admin.projectId],
      user: [user, member.userId, admin.userId],
      role: [role, roleId('member'), roleId('admin'), roleId('reader')],
      ownProject: [member.projectId, admin.projectId],
      server: [...memberServers, ...adminServers],
      flavor: ['1', '42', 'fuzz-flavor'],
      flavorSpecKey: ['hw:cpu_policy', 'fuzz'],
      hypervisor: hypervisors.map((h) => h.id),
      hypervisorPattern: hypervisors.map((h) => h.hypervisor_hostname),
      service: services.map((s) => String(s.id)),
      volume: [multiattach, plain, spare, adminVolume],
      attachment: [...attachments.map((x) => x.id), ...spareAttachments],
      volumeType: [type, ...types.map((t) => t.id), 'default'],
      typeSpecKey: ['fuzz_key', 'multiattach'],
      image: [imageId],
      ...net.ids,
      snapshot: snapshots,
      volumeMetadataKey: ['fuzz', 'missing'],
      // Never `disable`: a disabled volume service would refuse the fuzz's own volumes.
      volumeServiceAction: ['enable', 'freeze', 'thaw'],
      // --- C2: tenancy ---
      keypair: ['fuzz-key'],
      quotaClass: ['default', 'fuzz-class'],
      // --- cloud14v: identity catalog ---
      catalogService: [...catalogServiceIds, 'fuzz-missing'],
      catalogEndpoint: [...catalogEndpointIds, 'fuzz-missing'],
      region: ['RegionOne', 'fuzz-missing'],
      volumeHost: ['cloud@lvmdriver-1', 'cloud', 'fuzz-missing'],
      volumeExtension: ['os-hosts', 'backups', 'fuzz-missing'],
      // No backup service runs: no backup id exists.
      backup: ['0b7d6f4e-0000-4000-8000-000000000001'],
      // --- cloud15: server groups ---
      serverGroup: serverGroups,
      // --- cloudv2: block storage and flavor gaps ---
      volumeMessage: messageIds,
      encryptionKey: ['provider', 'cipher', 'fuzz-missing'],
      // --- cloud-proxy-hosts ---
      computeHost: ['compute-1', 'compute-3', 'controller', 'fuzz-missing'],
      auditTime: ['2026-11-25 06:00:00', '2026-11-25 06:00:00.5', 'invalid_time'],
      aggregate: [...aggregates, '999999'],
      // cloud-qos-transfer: QoS specs and volume transfers
      qosSpecs: [qosSpecsId],
      volumeTransfer: [transferId],
      // --- cloud-groups ---
      ...groups.ids,
    },
    identityWritable: {
      project: [project],
      user: [user],
      role: [role],
      domain: ['default'],
      // cloud-qos-transfer: Keystone catalog entries of the fuzz's own
      ...catalogWritable,
    },
    expendable: {
      project: spareProjects,
      user: spareUsers,
      role: spareRoles,
      server: spareServers,
      flavor: ['fuzz-spare-1', 'fuzz-spare-2'],
      // The controller's services: deleting a compute host would leave nowhere to build servers.
      service: services.filter((s) => s.binary !== 'nova-compute').map((s) => String(s.id)),
      volume: spareVolumes,
      attachment: spareAttachments,
      volumeType: spareTypes,
      ...net.expendable,
      snapshot: spareSnapshots,
      // --- C2: tenancy ---
      keypair: ['fuzz-spare-key-1', 'fuzz-spare-key-2'],
      // --- cloud15: server groups ---
      serverGroup: spareServerGroups,
      // --- cloudv2: block storage and flavor gaps ---
      volumeMessage: spareMessageIds,
      // --- cloud-proxy-hosts ---
      aggregate: spareAggregates,
      // cloud-qos-transfer: QoS specs and volume transfers
      qosSpecs: [spareQosSpecsId],
      ...catalogExpendable,
      // --- cloud-groups ---
      ...groups.expendable,
    },
    fuzzUser: {
      id: user,
      name: 'fuzz-user',
      password: 'fuzz-pass',
      projectId: project,
      projectName: 'fuzz-project',
    },
    throwawayToken: throwaway.token,
    memberServers,
    adminServers,
    memberVolumes: { multiattach, plain, spare },
    adminVolume,
    imageId,
    network: net.network,
  };
}

/**
 * The network service's resources: the seeded networks, both projects' default security groups
 * (made here, so a fuzzed GET never is the first use that makes them), and spare networks,
 * subnets, ports, groups and rules for DELETEs.
 */
async function networkFixtures(tc: TestCloud, admin: Session, member: Session) {
  const N = '/network/v2.0';
  const nets: Record<string, string> = {};
  const groups: Record<string, string> = {};
  for (const [who, s] of [
    ['admin', admin],
    ['member', member],
  ] as const) {
    const list = await ok(tc, 'GET', `${N}/networks?name=private&project_id=${s.projectId}`, s.token);
    nets[who] = list.networks[0].id;
    const sg = await ok(tc, 'GET', `${N}/security-groups?name=default`, s.token);
    groups[who] = sg.security_groups[0].id;
  }
  const subnet = (await ok(tc, 'GET', `${N}/subnets?network_id=${nets.member}`, member.token)).subnets[0].id;
  const port = (
    await ok(tc, 'POST', `${N}/ports`, member.token, { port: { network_id: nets.member, name: 'fuzz-port' } })
  ).port.id;
  const rule = (
    await ok(tc, 'POST', `${N}/security-group-rules`, member.token, {
      security_group_rule: { security_group_id: groups.member, direction: 'ingress', protocol: 'icmp' },
    })
  ).security_group_rule.id;
  const spare = {
    network: [] as string[],
    subnet: [] as string[],
    port: [] as string[],
    group: [] as string[],
    rule: [] as string[],
  };
  for (let i = 0; i < 3; i++) {
    const n = (await ok(tc, 'POST', `${N}/networks`, member.token, { network: { name: `fuzz-spare-${i}` } }))
      .network.id;
    spare.network.push(n);
    const sn = (
      await ok(tc, 'POST', `${N}/subnets`, member.token, {
        subnet: { network_id: nets.member, ip_version: 4, cidr: `10.9${i}.0.0/28` },
      })
    ).subnet.id;
    spare.subnet.push(sn);
    spare.port.push(
      (await ok(tc, 'POST', `${N}/ports`, member.token, { port: { network_id: nets.member } })).port.id,
    );
    const g = (
      await ok(tc, 'POST', `${N}/security-groups`, member.token, {
        security_group: { name: `fuzz-spare-${i}` },
      })
    ).security_group;
    spare.group.push(g.id);
    spare.rule.push(g.security_group_rules[0].id);
  }
  return {
    network: {
      memberNetwork: nets.member!,
      adminNetwork: nets.admin!,
      memberGroup: groups.member!,
      adminGroup: groups.admin!,
    },
    ids: {
      network: [nets.member!, nets.admin!],
      subnet: [subnet],
      port: [port],
      securityGroup: [groups.member!, groups.admin!],
      securityGroupRule: [rule],
      extension: ['security-group', 'binding', 'fuzz'],
      networkLabel: ['private', 'public'],
    },
    expendable: {
      network: spare.network,
      subnet: spare.subnet,
      port: spare.port,
      securityGroup: spare.group,
      securityGroupRule: spare.rule,
    },
  };
}

// --- cloud-groups: generic volume groups ---
/**
 * A public group type (spec `fuzz_key`) and a volume type for groups; for each of the member and
 * the admin an available group holding one volume; a group snapshot of the member's; spare group
 * types, groups and group snapshots for the deletes.
 */
async function groupFixtures(tc: TestCloud, admin: Session, member: Session) {
  const a = admin.token;
  const V = 'volume 3.20';
  const newGroupType = async (name: string) =>
    (
      await ok(
        tc,
        'POST',
        `${admin.volumeBase}/group_types`,
        a,
        { group_type: { name, group_specs: { fuzz_key: 'v' } } },
        V,
      )
    ).group_type.id as string;
  const groupType = await newGroupType('fuzz-group-type');
  const spareGroupTypes = [await newGroupType('fuzz-spare-gt-1'), await newGroupType('fuzz-spare-gt-2')];
  const volumeType = (
    await ok(tc, 'POST', `${admin.volumeBase}/types`, a, { volume_type: { name: 'fuzz-group-vt' } })
  ).volume_type.id as string;
  const newGroup = async (s: Session) => {
    const id = (
      await ok(
        tc,
        'POST',
        `${s.volumeBase}/groups`,
        s.token,
        { group: { name: 'fuzz-group', group_type: groupType, volume_types: [volumeType] } },
        V,
      )
    ).group.id as string;
    await tc.settle();
    await ok(
      tc,
      'POST',
      `${s.volumeBase}/volumes`,
      s.token,
      { volume: { size: 1, volume_type: volumeType, group_id: id } },
      V,
    );
    await tc.settle();
    return id;
  };
  const memberGroup = await newGroup(member);
  const adminGroup = await newGroup(admin);
  const spareGroups = [await newGroup(member), await newGroup(admin)];
  const newGroupSnapshot = async () => {
    const id = (
      await ok(
        tc,
        'POST',
        `${member.volumeBase}/group_snapshots`,
        member.token,
        { group_snapshot: { group_id: memberGroup } },
        V,
      )
    ).group_snapshot.id as string;
    await tc.settle();
    return id;
  };
  const groupSnapshot = await newGroupSnapshot();
  const spareGroupSnapshots = [await newGroupSnapshot(), await newGroupSnapshot()];
  return {
    ids: {
      groupType: [groupType, 'default', 'fuzz-missing'],
      groupSpecKey: ['fuzz_key', 'fuzz-missing'],
      volumeGroup: [memberGroup, adminGroup],
      groupSnapshot: [groupSnapshot],
    },
    expendable: {
      groupType: spareGroupTypes,
      volumeGroup: spareGroups,
      groupSnapshot: spareGroupSnapshots,
    },
  };
}
