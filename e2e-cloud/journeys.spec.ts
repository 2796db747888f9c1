import { expect, type Page, test } from '@playwright/test';
import { type ApiServer, type ApiVolume, BffApi } from '../e2e/fixtures/api';
import { type Boot, createVolume, ensureAttached, ensureDetached, launch, removeNamed } from './cloud-api';
import { type CloudUser, cloudEnv } from './cloud-env';
import { recordCloud, recordJourney } from './journey-times';

// The dashboard's everyday journeys against a real cloud (npm run e2e:cloud): sign-in, attach,
// detach, a launch of 3 servers on one shared volume, and the topology, each timed from the click
// that starts it to the screen that ends it. What a journey is not about (its server, its volumes)
// is made through the BFF's API beforehand, named `<prefix>-<run>-…`, and deleted afterwards.
// Works on a cloud without an image service (servers boot from a bootable volume) or a network
// service (the BFF creates servers with `networks: none`).

const env = cloudEnv();
const run = Date.now().toString(36);
const named = (what: string) => `${env.prefix}-${run}-${what}`;

interface Capabilities {
  compute: { maxVersion: string };
  volume: { maxVersion: string };
  launchStrategy: string;
  topologyExtension: boolean;
  readOnlyAttach: { available: boolean };
}

interface Scene {
  api: BffApi;
  flavor: { id: string; name: string };
  /** The server the attach and detach journeys use. */
  server: ApiServer;
  /** Attached and detached; shared when the cloud has a shared type. */
  data: ApiVolume;
  /** The launch's boot volume: shared and bootable; null without a shared volume type. */
  boot: ApiVolume | null;
  sharedType: string | null;
}

let scene: Scene;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(15 * 60_000);
  const api = await BffApi.signIn(baseURL!, env.member);
  const session = await api.get<{ capabilities: Capabilities }>('/api/session');
  const c = session.capabilities;
  recordCloud(
    `compute up to ${c.compute.maxVersion}, volume up to ${c.volume.maxVersion}; launch: ${c.launchStrategy}; ` +
      `topology: ${c.topologyExtension ? 'the extension' : 'standard APIs'}; read-only attach ${c.readOnlyAttach.available ? 'offered' : 'not offered'}`,
  );
  // What an earlier run left behind (it stopped before its clean-up).
  const left = await removeNamed(api, `${env.prefix}-`);
  if (left.length > 0) console.log(`removed leftovers: ${left.join(', ')}`);

  const { flavors } = await api.get<{ flavors: { id: string; name: string; ramMb: number }[] }>(
    '/api/flavors',
  );
  const flavor = env.flavor
    ? flavors.find((f) => f.name === env.flavor || f.id === env.flavor)
    : [...flavors].sort((a, b) => a.ramMb - b.ramMb)[0];
  if (!flavor) throw new Error(`no flavor ${env.flavor ?? ''} in ${flavors.map((f) => f.name).join(', ')}`);
  const { types } = await api.get<{ types: { name: string; shared: boolean }[] }>('/api/volume-types');
  const sharedType = types.find((t) => t.shared)?.name ?? null;
  const { images } = await api.get<{
    images: { id: string; status: string; sizeBytes: number | null }[];
  }>('/api/images');
  const image = images.find((i) => i.status === 'active') ?? null;
  const imageGb = image ? Math.max(1, Math.ceil((image.sizeBytes ?? 0) / 1024 ** 3)) : 1;

  // Without an image service the server boots from a volume made bootable.
  let boot: Boot;
  if (image) boot = { source: 'image', imageId: image.id };
  else {
    const root = await createVolume(api, { name: named('root'), sizeGb: 1, bootable: true });
    boot = { source: 'volume', volumeId: root.id, mode: 'rw' };
  }
  const [app, data, shared] = await Promise.all([
    launch(api, {
      name: named('app'),
      count: 1,
      flavorId: flavor.id,
      boot,
      ...(env.zone ? { availabilityZone: env.zone } : {}),
    }),
    createVolume(api, { name: named('data'), sizeGb: 1, ...(sharedType ? { type: sharedType } : {}) }),
    sharedType
      ? createVolume(api, {
          name: named('boot'),
          sizeGb: imageGb,
          type: sharedType,
          bootable: true,
          ...(image ? { imageId: image.id } : {}),
        })
      : Promise.resolve(null),
  ]);
  if (app.launch.status !== 'succeeded' || !app.servers[0]) {
    throw new Error(`the attach journeys' server did not launch: ${app.launch.summary}`);
  }
  scene = { api, flavor, server: app.servers[0], data, boot: shared, sharedType };
});

test.afterAll(async () => {
  test.setTimeout(15 * 60_000);
  if (!scene) return;
  const removed = await removeNamed(scene.api, `${env.prefix}-${run}-`);
  console.log(`removed: ${removed.join(', ')}`);
  await scene.api.dispose();
});

/** Signs in through the login page; the time from the click to the volumes list drawn. */
async function signIn(page: Page, user: CloudUser): Promise<number> {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Sign in to Shared volumes' })).toBeVisible();
  await page.getByLabel('User name').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  if (user.project) await page.getByLabel('Project (optional)').fill(user.project);
  const t0 = performance.now();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Volumes' })).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Volumes' })
      .or(page.getByText(/There are no volumes|has no volumes yet/)),
  ).toBeVisible();
  return performance.now() - t0;
}

async function openServer(page: Page, server: ApiServer): Promise<void> {
  await page.goto(`/servers/${server.id}`);
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(server.name) })).toContainText(
    'ACTIVE',
  );
}

const heldRow = (page: Page, server: ApiServer, volume: ApiVolume) =>
  page
    .getByRole('table', { name: `Volumes attached to server ${server.name}` })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name: volume.name }) });

test('sign-in', async ({ page }) => {
  const ms = await signIn(page, env.member);
  await expect(page.getByRole('banner')).toContainText(env.member.username);
  recordJourney('sign-in', 'Sign in clicked → the volumes list drawn', ms);
});

test('attach', async ({ page }) => {
  const { server, data, api } = scene;
  // Free again when the journeys run more than once (--repeat-each).
  await ensureDetached(api, server.id, data.id);
  await signIn(page, env.member);
  await openServer(page, server);

  const t0 = performance.now();
  await page.getByRole('button', { name: 'Attach volume' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Attach a volume' });
  const pick = dialog.getByRole('radio', { name: new RegExp(data.name) });
  await expect(pick).toBeEnabled();
  const dialogReady = performance.now() - t0;
  await pick.check();
  const t1 = performance.now();
  await dialog.getByRole('button', { name: 'Attach read-write' }).click();
  await expect(dialog).toBeHidden();
  const row = heldRow(page, server, data);
  await expect(row).toContainText('read-write');
  await expect(row).toContainText('attached', { timeout: 5 * 60_000 });
  const attached = performance.now() - t1;

  recordJourney(
    'attach: the dialog',
    'Attach volume clicked → the volume offered (pre-flight answered)',
    dialogReady,
  );
  recordJourney('attach', 'Attach read-write clicked → the row says attached', attached);
  const now = await api.volume(data.id);
  expect(now.attachments.map((a) => a.serverId)).toEqual([server.id]);
});

test('detach', async ({ page }) => {
  const { server, data, api } = scene;
  await ensureAttached(api, server.id, data.id);
  await signIn(page, env.member);
  await openServer(page, server);
  const row = heldRow(page, server, data);
  await expect(row).toContainText('attached');

  await page.getByRole('button', { name: `Detach ${data.name} from ${server.name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Detach volume?' });
  const t0 = performance.now();
  await confirm.getByRole('button', { name: 'Detach', exact: true }).click();
  await expect(row).toHaveCount(0, { timeout: 5 * 60_000 });
  recordJourney('detach', 'Detach confirmed → the row gone', performance.now() - t0);
  await expect
    .poll(async () => (await api.volume(data.id)).attachments.length, { timeout: 5 * 60_000 })
    .toBe(0);
});

test('launch-3', async ({ page }, testInfo) => {
  test.skip(!scene.boot, 'the cloud has no shared (multiattach) volume type');
  const boot = scene.boot!;
  const serverName = named(`web${testInfo.repeatEachIndex || ''}`);
  await signIn(page, env.member);

  const t0 = performance.now();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Launch', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Launch servers' })).toBeVisible();
  const next = async (step: string) => {
    await page.getByRole('button', { name: `Next: ${step}` }).click();
    await expect(
      page.getByRole('heading', { level: 2, name: new RegExp(`Step \\d of \\d: ${step}$`) }),
    ).toBeVisible();
  };
  await page.getByLabel('Server name').fill(serverName);
  await page.getByLabel('Number of servers').fill('3');
  await next('Flavor');
  await page.getByRole('radio', { name: scene.flavor.name, exact: true }).check();
  await next('Boot source');
  await page.getByRole('radio', { name: /A bootable volume/ }).check();
  await page.getByRole('radio', { name: new RegExp(boot.name) }).check();
  const mode = page.getByRole('group', { name: `How the servers get ${boot.name}` });
  await mode.getByRole('radio', { name: /Read-write/ }).check();
  await next('Data volumes');
  await next('Availability zone');
  if (env.zone) await page.getByRole('combobox', { name: 'Availability zone' }).selectOption(env.zone);
  // Networks and security groups: what the cloud offers is preselected (the project's one network,
  // the default group); a cloud without them says so and launches without a network.
  await next('Networks');
  await next('Security groups');
  // A new key pair, its private key downloaded once, as a person setting up servers would.
  await next('Key pair');
  const keyName = named(`key${testInfo.repeatEachIndex || ''}`);
  await page.getByRole('radio', { name: 'Create a new key pair' }).check();
  await page.getByLabel('Key pair name').fill(keyName);
  await page.getByRole('button', { name: 'Create key pair' }).click();
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: `Download ${keyName}.pem` }).click();
  expect((await downloading).suggestedFilename()).toBe(`${keyName}.pem`);
  await page.getByRole('button', { name: 'Next: Review' }).click();
  await page.getByRole('checkbox', { name: 'I have saved the private key' }).click();
  await next('Review');
  await page
    .getByRole('checkbox', { name: 'The servers use a cluster file system; give them read-write anyway' })
    .check();
  await expect(page.getByText('Ready to launch.')).toBeVisible();
  const wizard = performance.now() - t0;
  // A member cannot read host figures on a real cloud, so the plan says capacity is unchecked;
  // the screenshot shows what the review said on this cloud.
  await expect(page.getByRole('region', { name: /Capacity/ })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('launch-review.png'), fullPage: true });

  const t1 = performance.now();
  await page.getByRole('button', { name: 'Launch 3 servers' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Launch of 3 × ${serverName}` })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: '3 of 3 servers active' })).toBeVisible({
    timeout: 10 * 60_000,
  });
  const launched = performance.now() - t1;
  recordJourney(
    'launch-3: the wizard',
    'Launch clicked → the review says ready (filled by the test)',
    wizard,
  );
  recordJourney('launch-3', 'Launch 3 servers clicked → the progress page says 3 of 3 active', launched);

  // The cloud agrees: the shared volume is held by the 3 new servers.
  const held = await scene.api.volume(boot.id);
  expect(held.attachments.filter((a) => a.serverName?.startsWith(`${serverName}-`))).toHaveLength(3);
});

test('topology', async ({ page }) => {
  const { server, data, api } = scene;
  await ensureAttached(api, server.id, data.id);
  const user = env.admin ?? env.member;
  await signIn(page, user);

  const t0 = performance.now();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Topology' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Topology' })).toBeVisible();
  const graph = page.getByRole('region', { name: /Topology graph/ });
  await expect(graph.getByRole('group', { name: new RegExp(`^Volume ${data.name},`) })).toBeVisible({
    timeout: 2 * 60_000,
  });
  await expect(
    graph.getByRole('img', { name: new RegExp(`^${server.name} to ${data.name}, read-write`) }),
  ).toBeAttached();
  recordJourney(
    'topology',
    `Topology clicked → the graph draws the journey's volume (as ${env.admin ? 'an admin, whole cloud' : 'the member'})`,
    performance.now() - t0,
  );
});
