import type { Locator, Page } from '@playwright/test';
import { type BffApi, unique, USERS } from './fixtures/api';
import { expect, signIn, test } from './fixtures/test';

// Journey a: a member launches 3 servers that boot from one shared (multiattach) volume and mount a
// second shared volume read-only, all through the Launch wizard, on the project's network with the
// default security group and a key pair made in the wizard (its private key downloaded once); then
// checks every server's modes on the progress page and on both volumes' pages, and every server's
// address, key pair and group on its own page. It deletes what it made (other journeys run after).

const COUNT = 3;

/** The wizard's "Next: <step>" button, and that the step it leads to is on screen. */
async function next(page: Page, step: string) {
  await page.getByRole('button', { name: `Next: ${step}` }).click();
  await expect(
    page.getByRole('heading', { level: 2, name: new RegExp(`Step \\d of \\d: ${step}$`) }),
  ).toBeVisible();
}

/** The member's servers whose names start with `prefix-`, with their ids. */
async function serversNamed(api: BffApi, prefix: string) {
  const { servers } = await api.get<{ servers: { id: string; name: string }[] }>('/api/servers');
  return servers.filter((s) => s.name.startsWith(`${prefix}-`));
}

// What the journey made, deleted after it even when it failed half-way.
const made = { serverName: '', volumeIds: [] as string[], keyPairs: [] as string[] };
test.afterEach(async ({ memberApi }) => {
  const serverIds = made.serverName ? (await serversNamed(memberApi, made.serverName)).map((s) => s.id) : [];
  await memberApi.cleanUp({ serverIds, volumeIds: made.volumeIds, keyPairs: made.keyPairs });
});

/** The list item of a server's row that names this volume (mode badge, name, state, device). */
const holding = (row: Locator, volumeName: string) =>
  row.getByRole('listitem').filter({ hasText: volumeName });

test('a member launches 3 servers on one shared boot volume with a shared data volume read-only', async ({
  page,
  memberApi,
  scan,
  snapshot,
}) => {
  // Nine steps with an axe scan each, three servers, and their pages: longer than the default.
  test.setTimeout(240_000);
  // What the journey is not about: the two shared volumes exist (created through the BFF's API).
  const image = await memberApi.image();
  const bootName = unique('e2e-root');
  const dataName = unique('e2e-data');
  const [boot, data] = await Promise.all([
    memberApi.createVolume({
      name: bootName,
      sizeGb: image.minSizeGb,
      type: 'multiattach',
      bootable: true,
      imageId: image.id,
    }),
    memberApi.createVolume({ name: dataName, sizeGb: 1, type: 'multiattach' }),
  ]);
  made.volumeIds.push(boot.id, data.id);
  const serverName = unique('web');
  made.serverName = serverName;
  const keyName = unique('e2e-key');
  const servers = Array.from({ length: COUNT }, (_, i) => `${serverName}-${i + 1}`);

  await signIn(page, USERS.member, scan);
  await expect(page.getByRole('link', { name: bootName })).toBeVisible();

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Launch', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Launch servers' })).toBeVisible();

  // Step 1: details.
  await expect(page.getByRole('heading', { level: 2, name: /Step 1 of 9: Details/ })).toBeVisible();
  await page.getByLabel('Server name').fill(serverName);
  await page.getByLabel('Number of servers').fill(String(COUNT));
  await expect(
    page.getByText(`The servers will be called ${serverName}-1 … ${serverName}-${COUNT}.`),
  ).toBeVisible();
  await scan('launch wizard: details');

  // Step 2: the smallest flavor.
  await next(page, 'Flavor');
  await page.getByRole('radio', { name: 'm1.nano' }).check();
  await scan('launch wizard: flavor');

  // Step 3: boot from the shared volume, read-write (the wizard proposes read-only for several servers,
  // and warns about 3 writers when told read-write).
  await next(page, 'Boot source');
  await page.getByRole('radio', { name: /A bootable volume/ }).check();
  await page.getByRole('radio', { name: new RegExp(bootName) }).check();
  const bootMode = page.getByRole('group', { name: `How the servers get ${bootName}` });
  await bootMode.getByRole('radio', { name: /Read-write/ }).check();
  await expect(bootMode.getByRole('radio', { name: /Read-write/ })).toBeChecked();
  await expect(page.getByText(`${COUNT} servers would write to ${bootName} at the same time`)).toBeVisible();
  await scan('launch wizard: boot source');

  // Step 4: the data volume on every server, read-only.
  await next(page, 'Data volumes');
  await page.getByRole('checkbox', { name: new RegExp(dataName) }).check();
  const dataMode = page.getByRole('group', { name: `Access to ${dataName}` });
  await dataMode.getByRole('radio', { name: 'Read-only' }).check();
  await expect(dataMode.getByRole('radio', { name: 'Read-only' })).toBeChecked();
  await scan('launch wizard: data volumes');

  // Step 5: the zone the volumes are in.
  await next(page, 'Availability zone');
  await page.getByRole('combobox', { name: 'Availability zone' }).selectOption('nova');
  await scan('launch wizard: availability zone');

  // Step 6: the project's one network, chosen already, with its subnet.
  await next(page, 'Networks');
  const network = page.getByRole('checkbox', { name: /private/ });
  await expect(network).toBeChecked();
  await expect(page.getByText('10.0.0.0/22')).toBeVisible();
  await scan('launch wizard: networks');

  // Step 7: the project's default security group, chosen already.
  await next(page, 'Security groups');
  await expect(page.getByRole('checkbox', { name: /^default/ })).toBeChecked();
  await scan('launch wizard: security groups');

  // Step 8: a new key pair; its private key is shown once and downloaded, and the wizard waits for
  // the user's word that it is saved.
  await next(page, 'Key pair');
  await page.getByRole('radio', { name: 'Create a new key pair' }).check();
  await page.getByLabel('Key pair name').fill(keyName);
  await page.getByRole('button', { name: 'Create key pair' }).click();
  made.keyPairs.push(keyName);
  await expect(page.getByRole('heading', { name: `Save the private key of ${keyName} now` })).toBeVisible();
  await expect(page.getByRole('textbox', { name: `Private key of ${keyName}` })).toHaveValue(/PRIVATE KEY/);
  const downloading = page.waitForEvent('download');
  await page.getByRole('link', { name: `Download ${keyName}.pem` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`${keyName}.pem`);
  await scan('launch wizard: key pair, private key shown once');
  await snapshot('launch-key-pair-private-key');
  await page.getByRole('button', { name: 'Next: Review' }).click();
  await expect(page.getByText('Confirm you saved the private key: it cannot be shown again.')).toBeVisible();
  await page.getByRole('checkbox', { name: 'I have saved the private key' }).click(); // (it goes with the key: not .check())
  await expect(
    page.getByText(`Key pair ${keyName} created. Its private key is no longer shown.`),
  ).toBeVisible();

  // Step 9: the review, and the BFF's pre-flight verdict: three writers need the acknowledgement.
  await next(page, 'Review');
  await page
    .getByRole('checkbox', { name: 'The servers use a cluster file system; give them read-write anyway' })
    .check();
  await expect(page.getByText('Ready to launch.')).toBeVisible();
  // The bundled cloud's scheduler counted the room for all three.
  await expect(page.getByRole('region', { name: /Capacity/ })).toContainText(
    `Checked with the cloud's scheduler: the cloud can place all ${COUNT} servers now.`,
  );
  await scan('launch wizard: review');
  await snapshot('launch-shared-review');
  await page.getByRole('button', { name: `Launch ${COUNT} servers` }).click();

  // The progress view: every server ACTIVE, boot volume read-write, data volume read-only.
  await expect(
    page.getByRole('heading', { level: 1, name: `Launch of ${COUNT} × ${serverName}` }),
  ).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: `${COUNT} of ${COUNT} servers active` }),
  ).toBeVisible({
    timeout: 60_000,
  });
  const progress = page.getByRole('table', { name: /Servers in this launch/ });
  for (const name of servers) {
    const row = progress.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    // The progress says it once ("active"): Nova's own status shows only where it says more.
    await expect(row).toContainText('active');
    await expect(holding(row, bootName)).toContainText('read-write');
    await expect(holding(row, bootName)).toContainText('attached');
    await expect(holding(row, dataName)).toContainText('read-only');
    await expect(holding(row, dataName)).toContainText('attached');
  }
  await scan('launch progress');
  await snapshot('launch-shared');

  // The data volume's page: the 3 servers hold it read-only.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Volumes' }).click();
  await expect(page.getByRole('table', { name: 'Volumes' })).toBeVisible();
  await scan('volumes list (after the launch)');
  await page.getByRole('link', { name: dataName }).click();
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(dataName) })).toBeVisible();
  const dataHolders = page.getByRole('table', { name: `Servers holding volume ${dataName}` });
  await expect(dataHolders.getByRole('row')).toHaveCount(COUNT + 1);
  for (const name of servers) {
    const row = dataHolders.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    await expect(row).toContainText('read-only');
    await expect(row).toContainText('attached');
  }
  await scan('volume detail: data volume');
  await snapshot('launch-shared-data-volume');

  // The boot volume's page: the same 3 servers hold it read-write, and it warns about the writers.
  await page.goto(`/volumes/${boot.id}`);
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(bootName) })).toBeVisible();
  const bootHolders = page.getByRole('table', { name: `Servers holding volume ${bootName}` });
  await expect(bootHolders.getByRole('row')).toHaveCount(COUNT + 1);
  for (const name of servers) {
    const row = bootHolders.getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
    await expect(row).toContainText('read-write');
    await expect(row).toContainText('attached');
  }
  await expect(page.getByText(`${COUNT} servers write to this volume`)).toBeVisible();
  await scan('volume detail: boot volume');
  await snapshot('launch-shared-boot-volume');

  // And the cloud agrees: every holder in the mode the wizard asked for.
  const [bootNow, dataNow] = await Promise.all([memberApi.volume(boot.id), memberApi.volume(data.id)]);
  expect(bootNow.attachments.map((a) => a.mode)).toEqual(Array(COUNT).fill('rw'));
  expect(dataNow.attachments.map((a) => a.mode)).toEqual(Array(COUNT).fill('ro'));

  // Every server's page: its address on the project's network, the new key pair, the default group.
  const launched = await serversNamed(memberApi, serverName);
  expect(launched.map((s) => s.name).sort()).toEqual(servers);
  for (const { id, name } of launched) {
    await page.goto(`/servers/${id}`);
    await expect(page.getByRole('heading', { level: 1, name: new RegExp(name) })).toContainText('ACTIVE');
    const addresses = page.getByRole('table', { name: `Addresses of server ${name}` });
    await expect(addresses.getByRole('row').filter({ hasText: 'private' })).toContainText(
      /10\.0\.[0-3]\.\d+/,
    );
    await expect(addresses).toContainText('Fixed · IPv4');
    await expect(page.getByText('Key pair', { exact: true }).locator('xpath=..')).toContainText(keyName);
    await expect(page.getByText('Security groups', { exact: true }).locator('xpath=..')).toContainText(
      'default',
    );
  }
  await scan('server page: addresses, key pair and security groups');
  await snapshot('launch-shared-server-page');
});
