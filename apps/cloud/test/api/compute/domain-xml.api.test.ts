import { describe, expect } from 'vitest';
import { http, type Session, type TestCloud } from '../../helpers/cloud.js';
import { cloudTest } from '../../helpers/cloud-test.js';
import { bootFromVolume, createServer } from '../../helpers/compute-fixtures.js';
import { createVolume } from '../../helpers/volume-fixtures.js';

/** The emulator-only GET /servers/{id}/os-emulator-domain-xml (docs/cloud-extensions.md). */

let tc: TestCloud;
let demo: Session;
let admin: Session;

const it = cloudTest();
it.beforeAll(async ({ tc: cloud, demo: demoSession, admin: adminSession }) => {
  tc = cloud;
  demo = demoSession;
  admin = adminSession;
});

const nova = (method: string, path: string, version: string, body?: unknown, session: Session = demo) =>
  http(tc, method, `/compute/v2.1${path}`, {
    token: session.token,
    version: `compute ${version}`,
    ...(body !== undefined ? { body } : {}),
  });
const domainOf = (serverId: string, session: Session = admin) =>
  nova('GET', `/servers/${serverId}/os-emulator-domain-xml`, '2.105', undefined, session);

/** The `<disk>` element whose serial is the volume id. */
function diskFor(xml: string, volumeId: string): string {
  const disks = xml.match(/<disk [\s\S]*?<\/disk>/g) ?? [];
  const found = disks.find((d) => d.includes(`<serial>${volumeId}</serial>`));
  if (!found) throw new Error(`no disk for ${volumeId} in ${xml}`);
  return found;
}

describe('os-emulator-domain-xml', () => {
  it('renders shareable + cache="none" for multiattach, readonly for ro, nothing extra for rw', async () => {
    const s = await createServer(tc, { projectId: demo.projectId });
    const root = await createVolume(tc, { projectId: demo.projectId, bootable: true });
    await bootFromVolume(tc, s, root);
    const sharedRo = await createVolume(tc, { projectId: demo.projectId, multiattach: true });
    const sharedRw = await createVolume(tc, { projectId: demo.projectId, multiattach: true });
    const plain = await createVolume(tc, { projectId: demo.projectId });
    for (const [volumeId, mode] of [
      [sharedRo, 'ro'],
      [sharedRw, 'rw'],
      [plain, 'rw'],
    ] as const) {
      const res = await nova('POST', `/servers/${s.id}/os-volume_attachments`, '2.105', {
        volumeAttachment: { volumeId, attach_mode: mode },
      });
      expect(res.status).toBe(202);
    }
    await tc.settle();

    const res = await domainOf(s.id);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.domain)).toEqual(['server_id', 'host', 'xml']);
    expect(res.body.domain).toMatchObject({ server_id: s.id, host: 'compute-1' });
    const xml: string = res.body.domain.xml;
    expect(xml).toMatch(/^<domain type="kvm">/);
    expect(xml).toContain(`<uuid>${s.id}</uuid>`);

    const ro = diskFor(xml, sharedRo);
    expect(ro).toContain('<driver name="qemu" type="raw" cache="none" io="native"/>');
    expect(ro).toContain('<shareable/>');
    expect(ro).toContain('<readonly/>');
    const rw = diskFor(xml, sharedRw);
    expect(rw).toContain('cache="none"');
    expect(rw).toContain('<shareable/>');
    expect(rw).not.toContain('<readonly/>');
    const p = diskFor(xml, plain);
    expect(p).toContain('cache="none"');
    expect(p).not.toContain('<shareable/>');
    expect(p).not.toContain('<readonly/>');
    expect(diskFor(xml, root)).toContain('<target dev="vda" bus="virtio"/>');
    expect(ro).toMatch(/<target dev="vd[b-d]" bus="virtio"\/>/);
  });

  it('a member gets the policy 403', async () => {
    const s = await createServer(tc, { projectId: demo.projectId });
    const res = await domainOf(s.id, demo);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      forbidden: {
        code: 403,
        message: "Policy doesn't allow os_compute_api:os-emulator-domain-xml:show to be performed.",
      },
    });
  });

  it('unknown server 404; a server without a host 409', async () => {
    const missing = 'c99ffad6-4b83-43f3-a071-0f23f3c4212a';
    const res = await domainOf(missing);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      itemNotFound: { code: 404, message: `Instance ${missing} could not be found.` },
    });
    const s = await createServer(tc, { projectId: demo.projectId, vmState: 'shelved_offloaded', host: null });
    const res2 = await domainOf(s.id);
    expect(res2.status).toBe(409);
  });

  it('an image-booted server without volumes has its local root disk only', async () => {
    const s = await createServer(tc, { projectId: demo.projectId });
    const res = await domainOf(s.id);
    expect(res.body.domain.xml).toContain(`<source file="/var/lib/nova/instances/${s.id}/disk"/>`);
    expect(res.body.domain.xml.match(/<disk /g)).toHaveLength(1);
  });
});
