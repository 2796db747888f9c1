import { type APIRequestContext, request } from '@playwright/test';
import { unique, USERS } from './fixtures/api';
import { expect, pageOverflow, signIn, test } from './fixtures/test';

// Journey: the lists at real sizes. 500 servers and 200 volumes, seeded straight through the bundled
// cloud's own API (Keystone, then Nova's multi-create at 2.105 with min_count, and Cinder), the ten
// servers the journey deletes made to fail with a flavor no host fits. Then, as demo: find one server
// by name, sort by status, go to page 3 (and reload: the URL keeps the view), bulk-delete the ten
// failed servers with one confirmation; axe on both lists, and both usable at 390 and 1,920 px.
//
// The bundled cloud's five hosts hold about 250 one-vCPU servers: the batches that find no room end
// in ERROR ("No valid host was found"), as on a full cloud. The ten the journey deletes are its own.

const CLOUD = `http://127.0.0.1:${process.env.E2E_CLOUD_PORT ?? '8790'}`;
const SERVERS = 500;
const VOLUMES = 200;
const FAILED = 10;
const BATCH = 70;

interface CloudSession {
  http: APIRequestContext;
  projectId: string;
}

/** A Keystone token for `user` on their own project, as any OpenStack client gets one. */
async function cloudAs(user: { username: string; password: string }): Promise<CloudSession> {
  const keystone = await request.newContext({ baseURL: CLOUD });
  const res = await keystone.post('/identity/v3/auth/tokens', {
    data: {
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { name: user.username, domain: { id: 'default' }, password: user.password } },
        },
        scope: { project: { name: user.username, domain: { id: 'default' } } },
      },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const token = res.headers()['x-subject-token'] ?? '';
  const projectId = ((await res.json()) as { token: { project: { id: string } } }).token.project.id;
  await keystone.dispose();
  const http = await request.newContext({
    baseURL: CLOUD,
    extraHTTPHeaders: { 'X-Auth-Token': token, 'OpenStack-API-Version': 'compute 2.105, volume 3.50' },
  });
  return { http, projectId };
}

async function ok<T>(res: Promise<import('@playwright/test').APIResponse>, what: string): Promise<T> {
  const r = await res;
  if (!r.ok()) throw new Error(`${what}: ${r.status()} ${await r.text()}`);
  const text = await r.text();
  return (text ? JSON.parse(text) : {}) as T;
}

/** N servers named `<name>-1` … `<name>-N` in one Nova request (multi-create: all or none are placed). */
async function multiCreate(
  c: CloudSession,
  name: string,
  count: number,
  flavorRef: string,
  imageRef: string,
) {
  await ok(
    c.http.post('/compute/v2.1/servers', {
      data: {
        server: { name, flavorRef, imageRef, networks: 'none', min_count: count, max_count: count },
      },
    }),
    `create ${name}`,
  );
}

/** Runs `fn` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await fn(items[next++] as T);
    }),
  );
}

/**
 * Deletes what the journey seeded (servers and volumes named `<base>…`) and waits until the servers
 * are gone: the journeys after this one need the hosts' room back.
 */
async function cleanUp(c: CloudSession, base: string) {
  const servers = await ok<{ servers: { id: string }[] }>(
    c.http.get(`/compute/v2.1/servers?name=${base}-&limit=1000`),
    'servers to delete',
  );
  await inParallel(servers.servers, 16, (s) => c.http.delete(`/compute/v2.1/servers/${s.id}`));
  await expect
    .poll(
      async () =>
        (await ok<{ servers: unknown[] }>(c.http.get(`/compute/v2.1/servers?name=${base}-&limit=1`), 'left'))
          .servers.length,
      { timeout: 180_000, intervals: [1_000, 2_000, 5_000] },
    )
    .toBe(0);
  const volumes = await ok<{ volumes: { id: string; name: string | null }[] }>(
    c.http.get(`/volume/v3/${c.projectId}/volumes?limit=1000`),
    'volumes to delete',
  );
  const ours = volumes.volumes.filter((v) => v.name?.startsWith(`${base}-`));
  await inParallel(ours, 8, (v) => c.http.delete(`/volume/v3/${c.projectId}/volumes/${v.id}`));
}

test('500 servers and 200 volumes: find, sort, page 3, bulk-delete the failed ones, extend a volume, snapshot it', async ({
  page,
  scan,
  snapshot,
}, testInfo) => {
  test.setTimeout(600_000);
  const base = unique('lst');
  const started = Date.now();

  // --- Seeding, through the cloud's API ---------------------------------------------------------
  const admin = await cloudAs(USERS.admin);
  const demo = await cloudAs(USERS.member);
  try {
    const images = await ok<{ images: { id: string }[] }>(demo.http.get('/image/v2/images'), 'images');
    const imageRef = images.images[0]?.id ?? '';
    const huge = await ok<{ flavor: { id: string } }>(
      admin.http.post('/compute/v2.1/flavors', {
        data: { flavor: { name: `${base}-huge`, ram: 50_000_000, vcpus: 1, disk: 1 } },
      }),
      'flavor',
    );
    await multiCreate(demo, `${base}-fail`, FAILED, huge.flavor.id, imageRef);
    const batches = Math.ceil((SERVERS - FAILED) / BATCH);
    for (let b = 0; b < batches; b++) {
      const count = Math.min(BATCH, SERVERS - FAILED - b * BATCH);
      await multiCreate(demo, `${base}-b${b}`, count, '42', imageRef);
    }
    await inParallel(
      Array.from({ length: VOLUMES }, (_, i) => i),
      8,
      (i) =>
        ok(
          demo.http.post(`/volume/v3/${demo.projectId}/volumes`, {
            data: {
              volume: {
                name: `${base}-vol-${i}`,
                size: 1 + (i % 7),
                ...(i % 4 === 0 ? { volume_type: 'multiattach' } : {}),
              },
            },
          }),
          `volume ${i}`,
        ),
    );
    // Every server has left BUILD (placed, or failed for want of a host).
    await expect
      .poll(
        async () =>
          (
            await ok<{ servers: unknown[] }>(
              demo.http.get(`/compute/v2.1/servers?name=${base}&status=BUILD&limit=1`),
              'building',
            )
          ).servers.length,
        { timeout: 300_000, intervals: [1_000, 2_000, 5_000] },
      )
      .toBe(0);
    const seeded = await ok<{ servers: unknown[] }>(
      demo.http.get(`/compute/v2.1/servers?name=${base}&limit=1000`),
      'count',
    );
    expect(seeded.servers).toHaveLength(SERVERS);
    testInfo.annotations.push({
      type: 'seeding',
      description: `${SERVERS} servers, ${VOLUMES} volumes in ${Math.round((Date.now() - started) / 1000)} s`,
    });

    // --- The journey ------------------------------------------------------------------------------
    await signIn(page, USERS.member);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Servers' }).click();
    const table = page.getByRole('table', { name: 'Servers' });
    await expect(table).toBeVisible();
    // Nova does not count: the list says how many it knows of so far.
    await expect(page.getByText(/^1–20 of 21\+ servers$/)).toBeVisible();
    await scan('servers list (500)');

    // 1. Find one server by name.
    const wanted = `${base}-b3-17`;
    await page.getByRole('searchbox', { name: 'Search servers by name or ID' }).fill(wanted);
    await page.getByRole('searchbox', { name: 'Search servers by name or ID' }).press('Enter');
    await expect(table.getByRole('link', { name: wanted, exact: true })).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(page.getByText('1–1 of 1 servers')).toBeVisible();
    expect(new URL(page.url()).searchParams.get('q')).toBe(wanted);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(table.getByRole('row')).toHaveCount(21);

    // 2. Sort by status: active first, then (descending) the failed ones first.
    const statusSort = table.getByRole('columnheader', { name: /Status/ }).getByRole('button');
    await statusSort.click();
    await expect(table.getByRole('columnheader', { name: /Status/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await expect(table.getByRole('row').nth(1)).toContainText('ACTIVE');
    await statusSort.click();
    await expect(table.getByRole('columnheader', { name: /Status/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect(table.getByRole('row').nth(1)).toContainText('ERROR');

    // 3. Page 3, one page at a time; a reload shows the same page.
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Page 2', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText('Page 3', { exact: true })).toBeVisible();
    await expect(page.getByText(/^41–60 of \d+\+? servers$/)).toBeVisible();
    const firstOnPage3 = await table.getByRole('row').nth(1).getByRole('link').textContent();
    expect(new URL(page.url()).searchParams.get('page')).toBe('3');
    await page.reload();
    await expect(page.getByText('Page 3', { exact: true })).toBeVisible();
    await expect(table.getByRole('row').nth(1).getByRole('link')).toHaveText(firstOnPage3 ?? '');
    await snapshot('lists-servers-page3-1440');

    // 4. The ten failed servers: found, ticked at once, deleted with one confirmation.
    await page.goto(`/servers?q=${base}-fail&status=ERROR`);
    await expect(table.getByRole('row')).toHaveCount(FAILED + 1);
    await expect(table.getByText('No valid host was found').first()).toBeVisible();
    await page.getByRole('checkbox', { name: 'Select every server on this page' }).check();
    await expect(page.getByText(`${FAILED} selected`)).toBeVisible();
    await page.getByRole('button', { name: 'Delete selected…' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${FAILED} servers?` });
    await expect(dialog.getByRole('listitem')).toHaveCount(FAILED);
    await scan('bulk delete confirmation');
    await dialog.getByRole('button', { name: `Delete ${FAILED}` }).click();
    await expect(dialog.getByRole('status')).toHaveText(`${FAILED} of ${FAILED} accepted.`, {
      timeout: 60_000,
    });
    await expect(dialog.getByText('Deleting')).toHaveCount(FAILED);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText('No server matches')).toBeVisible({ timeout: 60_000 });
    // The list empties when the servers leave ERROR for deleting; the cloud finishes the deletes
    // a moment later (seconds on a loaded machine).
    await expect
      .poll(
        async () =>
          (await ok<{ servers: unknown[] }>(demo.http.get(`/compute/v2.1/servers?name=${base}-fail`), 'left'))
            .servers,
        { timeout: 60_000 },
      )
      .toEqual([]);

    // 5. The volumes list at 200, and both lists at 390 and 1,920 px.
    await page.goto('/volumes?sort=size&dir=desc');
    const volumes = page.getByRole('table', { name: 'Volumes' });
    await expect(volumes.getByRole('row').nth(1)).toContainText('7 GB');
    await expect(page.getByText(/^1–20 of \d+ volumes$/)).toBeVisible();
    await scan('volumes list (200)');

    // 6. Among the 200: extend the largest volume, snapshot it, and delete the snapshot.
    const largest = volumes.getByRole('row').nth(1).getByRole('link').first();
    const largestName = (await largest.textContent()) ?? '';
    await largest.click();
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(largestName) })).toBeVisible();
    await page.getByRole('button', { name: 'Extend' }).click();
    const extend = page.getByRole('dialog', { name: 'Extend volume' });
    await extend.getByLabel('New size (GB)').fill('8');
    await extend.getByRole('button', { name: 'Extend' }).click();
    await expect(extend).toBeHidden();
    await expect(page.getByText('8 GB', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
    const snaps = page.getByRole('region', { name: /^Snapshots/ });
    const snapName = `${base}-snap`;
    await snaps.getByRole('button', { name: 'Create snapshot' }).click();
    const create = page.getByRole('dialog', { name: `Snapshot ${largestName}` });
    await create.getByRole('textbox', { name: 'Name' }).fill(snapName);
    await create.getByRole('button', { name: 'Create snapshot' }).click();
    await expect(create).toBeHidden();
    const snapRow = snaps.getByRole('row').filter({ hasText: snapName });
    await expect(snapRow).toContainText('available', { timeout: 15_000 });
    await scan('volume page among 200, with a snapshot');
    await snapRow.getByRole('button', { name: `Delete snapshot ${snapName}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete snapshot?' });
    await confirm.getByRole('button', { name: 'Delete snapshot' }).click();
    await expect(confirm).toBeHidden();
    await expect(snaps.getByRole('row').filter({ hasText: snapName })).toHaveCount(0, { timeout: 15_000 });
    for (const [width, height] of [
      [390, 844],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const list of ['servers', 'volumes'] as const) {
        await page.goto(`/${list}?sort=status`);
        await expect(
          page.getByRole('table', { name: list === 'servers' ? 'Servers' : 'Volumes' }),
        ).toBeVisible();
        expect(await pageOverflow(page), `${list} at ${width} px scrolls sideways`).toBeLessThanOrEqual(0);
        await snapshot(`lists-${list}-${width}`);
        if (width === 390) await scan(`${list} list at 390 px`);
      }
    }

    await admin.http.delete(`/compute/v2.1/flavors/${huge.flavor.id}`);
  } finally {
    await cleanUp(demo, base);
    await admin.http.dispose();
    await demo.http.dispose();
  }
});
