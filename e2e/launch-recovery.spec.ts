import { resolve } from 'node:path';
import { type AppProcess, spawnBff } from '../test/reliability/helpers/processes';
import { unique, USERS } from './fixtures/api';
import { novaAsAdmin } from './fixtures/cloud';

const CLOUD = `http://127.0.0.1:${process.env.E2E_CLOUD_PORT ?? '8790'}`;
import { expect, signIn, test } from './fixtures/test';

// Journey: a launch that partly fails. Zone az2 has one host that can share disks (compute-3); a
// flavor as wide as what compute-3 has free lets one server of two boot from a shared volume there,
// and the other ends in ERROR with Nova's NoValidHost. On the progress page, "delete the failed
// servers" leaves none behind; the Launches page lists the launch; and a second dashboard process on
// the same launch database (a restart) still shows it.

let second: AppProcess | null = null;
test.afterAll(async () => {
  await second?.stop();
});

test('a launch that partly fails ends with "delete the failed servers" leaving none behind, and is still listed after a restart', async ({
  page,
  memberApi,
  scan,
}) => {
  // It starts a second dashboard process (tsx), which takes a while on a loaded machine.
  test.setTimeout(240_000);
  const nova = await novaAsAdmin();
  // What compute-3 has free now (other journeys may have servers there): one such server fits.
  // biome-ignore lint/suspicious/noExplicitAny: the fields read below are Nova's hypervisor view's
  const { hypervisors } = await nova<{ hypervisors: any[] }>('GET', '/os-hypervisors/detail');
  const c3 = hypervisors.find((h: { hypervisor_hostname: string }) =>
    h.hypervisor_hostname.startsWith('compute-3'),
  );
  expect(c3, 'compute-3 is a hypervisor').toBeTruthy();
  // Half of it: the plan's dry run sees room for both servers; a filler then takes one half before
  // the launch starts (which reuses that plan), so one server fits and the other finds no host.
  const half = Math.floor((c3.vcpus - c3.vcpus_used) / 2);
  expect(half, 'compute-3 has room for two servers').toBeGreaterThan(0);
  const flavorId = unique('e2e-wide');
  await nova('POST', '/flavors', {
    flavor: { name: flavorId, id: flavorId, ram: 256, vcpus: half, disk: 1 },
  });

  const image = await memberApi.image();
  const root = await memberApi.createVolume({
    name: unique('e2e-part-root'),
    sizeGb: image.minSizeGb,
    type: 'multiattach',
    bootable: true,
    imageId: image.id,
  });
  const name = unique('part');
  const request = {
    name,
    count: 2,
    flavorId,
    availabilityZone: 'az2',
    boot: { source: 'volume', volumeId: root.id, mode: 'rw' },
    dataVolumes: [],
    acknowledgeMultipleWriters: true,
  };
  const plan = await memberApi.post<{ ok: boolean }>('/api/launches/plan', request);
  expect(plan.ok).toBe(true);
  const filler = await nova<{ server: { id: string } }>('POST', '/servers', {
    server: {
      name: unique('e2e-filler'),
      flavorRef: flavorId,
      imageRef: image.id,
      networks: 'none',
      availability_zone: 'az2:compute-3',
    },
  });
  const started = await memberApi.post<{ id: string }>('/api/launches', request);

  await signIn(page, USERS.member);
  await page.goto(`/launches/${started.id}`);
  const outcome = page.getByRole('alert');
  await expect(outcome).toContainText('1 of 2 servers active; 1 failed', { timeout: 60_000 });
  await expect(outcome).toContainText('No valid host was found');
  // Status and progress once: Nova's ERROR says more than "failed", ACTIVE would only repeat "active".
  const table = page.getByRole('table', { name: 'Servers in this launch' });
  await expect(table.getByText('ACTIVE', { exact: true })).toHaveCount(0);
  await expect(table.getByText('ERROR', { exact: true })).toHaveCount(1);
  await scan('launch progress: partly failed');

  await page.getByRole('button', { name: 'Delete the failed server (1)' }).click();
  const done = page.getByRole('region', { name: 'What was done' });
  await expect(done.getByText('Deleted the failed servers', { exact: false })).toBeVisible();
  await expect(done.getByText(`${name}-2`, { exact: false })).toBeVisible();
  await expect(done.getByText(': Deleted', { exact: false })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('button', { name: /Delete the failed server/ })).toBeDisabled();
  await scan('launch progress: failed servers deleted');

  // None left behind: the cloud has only the active one.
  await expect
    .poll(async () => {
      const { servers } = await memberApi.get<{ servers: { name: string; status: string }[] }>(
        '/api/servers',
      );
      return servers.filter((s) => s.name.startsWith(`${name}-`)).map((s) => `${s.name} ${s.status}`);
    })
    .toEqual([`${name}-1 ACTIVE`]);
  // The filler gives its room back to the journeys after this one.
  await nova('DELETE', `/servers/${filler.server.id}`);

  // The Launches page lists it, newest first, with its outcome.
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Launches', exact: true })
    .click();
  const launches = page.getByRole('table', { name: 'Launches' });
  const row = launches.getByRole('row').filter({ hasText: `2 × ${name}` });
  await expect(row).toContainText('partly failed');
  await expect(row).toContainText('1 of 2 active, 1 failed');
  await scan('launches page');

  await scan('before the restart');
  // The dashboard restarted: another BFF process on the same launch database, signed in anew.
  second = await spawnBff({
    authUrl: `${CLOUD}/identity/v3`,
    name: 'bff-restarted',
    env: {
      // The same launch database as the dashboard under test: PostgreSQL, or its SQLite file.
      DATABASE_URL: process.env.E2E_DATABASE_URL?.startsWith('postgres') ? process.env.E2E_DATABASE_URL : '',
      BFF_DATABASE_FILE: process.env.E2E_BFF_DATABASE_FILE ?? resolve('.test-results/e2e-bff.db'),
      WEB_DIST: resolve('apps/web/dist'),
    },
  });
  await page.context().clearCookies();
  await page.goto(`${second.url}/`);
  await page.getByLabel('User name').fill(USERS.member.username);
  await page.getByLabel('Password', { exact: true }).fill(USERS.member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await page.goto(`${second.url}/launches`);
  const after = page
    .getByRole('table', { name: 'Launches' })
    .getByRole('row')
    .filter({ hasText: `2 × ${name}` });
  await expect(after).toContainText('partly failed');
  await after.getByRole('link', { name: `2 × ${name}` }).click();
  await expect(page.getByRole('alert')).toContainText('1 of 2 servers active; 1 failed');
  await expect(page.getByText('Deleted the failed servers', { exact: false })).toBeVisible();
});
