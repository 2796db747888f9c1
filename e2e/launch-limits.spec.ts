import type { Page } from '@playwright/test';
import { type BffApi, unique, USERS } from './fixtures/api';
import { computeQuotas, novaAsAdmin } from './fixtures/cloud';
import { expect, signIn, test } from './fixtures/test';

// Journeys b and c of issue 15: the plan stops a launch before anything is created when the
// project's quota or the cloud's hosts cannot take it, names what is in the way, and offers the
// count that fits. Each puts back what it changed and deletes what it made (other journeys run after).

async function next(page: Page, step: string) {
  await page.getByRole('button', { name: `Next: ${step}` }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: new RegExp(`Step \\d of \\d: ${step}$`) }),
  ).toBeVisible();
}

/** From the Flavor step to the review: the only image, the project's network and group, no key pair. */
async function toReview(page: Page, flavorName: string) {
  await next(page, 'Flavor');
  await page.getByRole('radio', { name: flavorName, exact: true }).check();
  await next(page, 'Boot source');
  await page.getByRole('radio', { name: /An image/ }).check();
  await page.getByRole('radio', { name: /cirros/ }).check();
  await next(page, 'Data volumes');
  await next(page, 'Availability zone');
  await next(page, 'Networks');
  await next(page, 'Security groups');
  await next(page, 'Key pair');
  await page.getByRole('radio', { name: 'No key pair' }).check();
  await next(page, 'Review');
}

/** The member's servers whose names start with `prefix-`. */
async function serversNamed(api: BffApi, prefix: string) {
  const { servers } = await api.get<{ servers: { id: string; name: string }[] }>('/api/servers');
  return servers.filter((s) => s.name.startsWith(`${prefix}-`));
}

interface QuotaUse {
  resource: string;
  used: number;
  limit: number | null;
}

test('a launch over the project quota is refused at the plan, the quota named', async ({
  page,
  memberApi,
  scan,
  snapshot,
}) => {
  const nova = await novaAsAdmin();
  const projectId = memberApi.projectId;
  const before = await computeQuotas(nova, projectId);
  try {
    const { quotas } = await memberApi.get<{ quotas: QuotaUse[] }>('/api/quotas');
    const used = (r: string) => quotas.find((q) => q.resource === r)?.used ?? 0;
    // Room for 2 more servers, and for 1 more vCPU.
    const instances = used('instances') + 2;
    const cores = used('cores') + 1;
    await nova('PUT', `/os-quota-sets/${projectId}`, { quota_set: { instances, cores } });

    await signIn(page, USERS.member);
    await page.goto('/launch');
    await expect(page.getByRole('heading', { level: 1, name: 'Launch servers' })).toBeVisible();
    const quota = page.getByRole('region', { name: 'Project quota' });
    await expect(quota).toContainText(`${used('instances')} of ${instances} used`);
    await page.getByLabel('Server name').fill(unique('quota'));
    // Three do not fit in the instances left: said at the count, and the wizard stays.
    await page.getByLabel('Number of servers').fill('3');
    await expect(
      page.getByText(
        `This project has room for 2 more servers (${used('instances')} of ${instances} instances used)`,
      ),
    ).toBeVisible();
    await page.getByRole('button', { name: 'Next: Flavor' }).click();
    await expect(page.getByRole('heading', { level: 2, name: /Step 1 of 9: Details/ })).toBeVisible();
    await scan('launch wizard: count over the instances left');
    await snapshot('launch-quota-count');

    // Two fit as instances, but not as vCPUs: the plan names the quota and by how much.
    await page.getByLabel('Number of servers').fill('2');
    await toReview(page, 'm1.nano');
    const blocked = page.getByRole('alert');
    await expect(blocked).toContainText('One problem stops this launch');
    await expect(blocked).toContainText(`This launch needs 2 vCPUs; the project has 1 left of ${cores}.`);
    await expect(blocked.getByRole('button', { name: 'Launch 1 instead' })).toBeVisible();
    const checks = page.getByRole('region', { name: 'Quotas' });
    await expect(checks.getByRole('listitem').filter({ hasText: 'vCPUs' })).toContainText('over by 1');
    await expect(page.getByRole('button', { name: 'Launch 2 servers' })).toBeDisabled();
    await scan('launch review: over quota');
    await snapshot('launch-quota-refused');
  } finally {
    await nova('PUT', `/os-quota-sets/${projectId}`, { quota_set: before });
  }
});

let launchedName = '';
test.afterEach(async ({ memberApi }) => {
  if (!launchedName) return;
  const serverIds = (await serversNamed(memberApi, launchedName)).map((s) => s.id);
  launchedName = '';
  await memberApi.cleanUp({ serverIds });
});

test('40 of the largest flavor are refused at the plan with how many fit, and "Launch N instead" launches that many', async ({
  page,
  memberApi,
  scan,
  snapshot,
}) => {
  test.setTimeout(240_000);
  const { flavors } = await memberApi.get<{ flavors: { name: string; vcpus: number; ramMb: number }[] }>(
    '/api/flavors',
  );
  const largest = [...flavors].sort((a, b) => b.ramMb - a.ramMb || b.vcpus - a.vcpus)[0];
  expect(largest, 'the cloud has flavors').toBeTruthy();
  const name = unique('big');
  launchedName = name;

  await signIn(page, USERS.member);
  await page.goto('/launch');
  await page.getByLabel('Server name').fill(name);
  await page.getByLabel('Number of servers').fill('40');
  await toReview(page, largest!.name);

  // The scheduler's dry run counted the room: fewer than 40 fit, and the plan says how many.
  const blocked = page.getByRole('alert');
  await expect(blocked).toContainText(/Only \d+ of the 40 servers fit on the cloud's hosts/);
  const instead = blocked.getByRole('button', { name: /^Launch \d+ instead$/ });
  const fits = Number((await instead.textContent())?.match(/\d+/)?.[0]);
  expect(fits).toBeGreaterThan(0);
  expect(fits).toBeLessThan(40);
  const capacity = page.getByRole('region', { name: /Capacity/ });
  await expect(capacity).toContainText(
    `Checked with the cloud's scheduler: only ${fits} servers of the 40 fit now.`,
  );
  await expect(page.getByRole('button', { name: 'Launch 40 servers' })).toBeDisabled();
  await scan('launch review: over capacity');
  await snapshot('launch-capacity-refused');

  // "Launch N instead": the count becomes N and the plan, asked again, is ready.
  await instead.click();
  await expect(page.getByText('Ready to launch.')).toBeVisible();
  await expect(capacity).toContainText(`the cloud can place all ${fits} servers now`);
  const launch = page.getByRole('button', { name: `Launch ${fits} servers` });
  await expect(launch).toBeEnabled();
  await snapshot('launch-capacity-instead');
  await launch.click();

  // And they all land: none ends in ERROR ("No valid host").
  await expect(page.getByRole('heading', { level: 1, name: `Launch of ${fits} × ${name}` })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `${fits} of ${fits} servers active` })).toBeVisible(
    { timeout: 120_000 },
  );
  await scan('launch progress: the count that fits');
});
