import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { smallestGraphText } from '../apps/web/src/features/topology/testing/text-probe';
import { type ApiServer, unique, USERS } from './fixtures/api';
import { expect, signIn, test } from './fixtures/test';

// Journey: the cloud. A project with 60 servers (a few sharing four volumes, two of them
// writing the same one, most holding none) opened on the admin's topology: every text drawn is
// at least 11 px on screen, what does not fit is folded with its counts, a folded box opens on a
// click, "Show in graph" frames the flagged volume with its two writers, Enter in Find moves to a
// folded server, the project filter names projects, and axe finds nothing serious.
//
// E2E_TOPOLOGY_SERVERS seeds another number (the bundled cloud's five hosts hold about 250 small
// servers in all); the 500 and 5,000 server screenshots come from the page bench
// (BENCH_TOPOLOGY_SCREENSHOTS=<dir> npx tsx bench/topology-page.bench.ts), which draws generated
// clouds of that size.

const SERVERS = Number(process.env.E2E_TOPOLOGY_SERVERS ?? 60);
const LEGIBLE_PX = 11;

/** The smallest text on the graph's canvas right now, in screen pixels (font size × zoom). */
async function smallestText(page: Page) {
  const probe = await page.evaluate(smallestGraphText);
  if (!probe) throw new Error('no graph on the page');
  return probe;
}

/** Waits until the graph's pan or zoom has settled (the viewport transform stops changing). */
async function settled(page: Page) {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = await page.evaluate(
          () => document.querySelector<HTMLElement>('.react-flow__viewport')?.style.transform ?? '',
        );
        const same = now === last;
        last = now;
        return same;
      },
      { intervals: [150, 150, 150, 250] },
    )
    .toBe(true);
}

/** Whether the element is entirely inside the graph's canvas. */
async function inCanvas(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const canvas = document.querySelector('.react-flow');
    if (!el || !canvas) return false;
    const r = el.getBoundingClientRect();
    const c = canvas.getBoundingClientRect();
    return r.left >= c.left - 1 && r.top >= c.top - 1 && r.right <= c.right + 1 && r.bottom <= c.bottom + 1;
  }, selector);
}

test('the topology of a 60-server project is legible, folds what does not fit, and finds things', async ({
  page,
  memberApi,
  scan,
  snapshot,
}, testInfo) => {
  test.setTimeout(180_000);
  const base = unique('t60');
  const shared = (name: string) => memberApi.createVolume({ name: `${base}-${name}`, type: 'multiattach' });
  const [web, cfg, logs, db] = await Promise.all([
    shared('web'),
    shared('cfg'),
    shared('logs'),
    shared('db'),
  ]);
  const scale = (n: number) => Math.max(1, Math.round((n * SERVERS) / 60));
  const launched: ApiServer[] = [];
  launched.push(
    ...(await memberApi.launch({
      name: `${base}-web`,
      count: scale(12),
      boot: { source: 'image' },
      dataVolumes: [
        { volumeId: web.id, mode: 'ro' },
        { volumeId: cfg.id, mode: 'ro' },
      ],
    })),
  );
  launched.push(
    ...(await memberApi.launch({
      name: `${base}-app`,
      count: scale(10),
      boot: { source: 'image' },
      dataVolumes: [
        { volumeId: cfg.id, mode: 'ro' },
        { volumeId: logs.id, mode: 'ro' },
      ],
    })),
  );
  // Two writers on one volume: the risk "Show in graph" is about.
  const writers = await memberApi.post<{ id: string }>('/api/launches', {
    name: `${base}-db`,
    count: 2,
    flavorId: await memberApi.smallestFlavorId(),
    boot: { source: 'image', imageId: await memberApi.imageId() },
    dataVolumes: [{ volumeId: db.id, mode: 'rw' }],
    acknowledgeMultipleWriters: true,
  });
  await expect
    .poll(async () => (await memberApi.get<{ status: string }>(`/api/launches/${writers.id}`)).status, {
      timeout: 60_000,
    })
    .toBe('succeeded');
  // The rest hold no volume.
  let left = SERVERS - launched.length - 2;
  for (let i = 0; left > 0; i++) {
    const count = Math.min(left, 200);
    launched.push(
      ...(await memberApi.launch({ name: `${base}-batch${i}`, count, boot: { source: 'image' } })),
    );
    left -= count;
  }
  const folded = launched.at(-1);
  if (!folded) throw new Error('nothing launched');

  await signIn(page, USERS.admin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Topology' }).click();
  const graph = page.getByRole('region', { name: /Topology graph/ });
  await expect(graph.locator('.react-flow__node').first()).toBeVisible({ timeout: 30_000 });
  await settled(page);

  // 1. The first view: nothing under 11 px on screen; what does not fit is folded, with counts.
  const first = await smallestText(page);
  testInfo.annotations.push({
    type: 'smallest text',
    description: `first view: ${first.min.toFixed(2)} px ("${first.text}") at zoom ${first.zoom.toFixed(3)}, ${first.count} texts, ${first.nodes} nodes`,
  });
  expect(first.count).toBeGreaterThan(10);
  expect(first.min, `smallest text on screen: "${first.text}"`).toBeGreaterThanOrEqual(LEGIBLE_PX);
  await expect(page.getByText(/^Drawn one by one: \d+ of \d+ servers/)).toBeVisible();
  await graph.screenshot({
    path: resolve(testInfo.config.rootDir, '../test-results/journeys/topology-60-graph.png'),
  });
  await snapshot('topology-60');
  await scan('topology at 60 servers (first view)');

  // Volumes are on one side: every volume box is right of every host box.
  const sides = await page.evaluate(() => {
    const left = Array.from(document.querySelectorAll('.react-flow__node-host, .react-flow__node-zone')).map(
      (n) => n.getBoundingClientRect().right,
    );
    const right = Array.from(
      document.querySelectorAll('.react-flow__node-volume, .react-flow__node-volumes'),
    ).map((n) => n.getBoundingClientRect().left);
    return { hostsEnd: Math.max(...left), volumesStart: Math.min(...right) };
  });
  expect(sides.volumesStart).toBeGreaterThan(sides.hostsEnd);

  // 2. "Show in graph" on the two writers: the volume and both writers framed, legibly.
  const risks = page.getByRole('region', { name: /^Risks/ });
  await risks.getByRole('button', { name: `Show volume ${db.name} in the graph` }).click();
  const volumeNode = graph.getByRole('group', { name: new RegExp(`^Volume ${db.name},`) });
  await expect(volumeNode).toBeVisible();
  await settled(page);
  expect(await inCanvas(page, `.react-flow__node[data-id="volume:${db.id}"]`)).toBe(true);
  const holders = (await memberApi.volume(db.id)).attachments.map((a) => a.serverId);
  expect(holders).toHaveLength(2);
  for (const id of holders) {
    expect(await inCanvas(page, `.react-flow__node[data-id="server:${id}"]`), `writer ${id} in view`).toBe(
      true,
    );
  }
  const focused = await smallestText(page);
  testInfo.annotations.push({
    type: 'smallest text',
    description: `after Show in graph: ${focused.min.toFixed(2)} px ("${focused.text}") at zoom ${focused.zoom.toFixed(3)}`,
  });
  expect(focused.min, `after Show in graph: "${focused.text}"`).toBeGreaterThanOrEqual(LEGIBLE_PX);
  await snapshot('topology-60-show-in-graph');

  // 3. Find a server folded away (it holds no volume) and press Enter: it is drawn and in view.
  await page.getByLabel('Find a server, volume or host').fill(folded.name);
  await page.getByLabel('Find a server, volume or host').press('Enter');
  const found = `.react-flow__node[data-id="server:${folded.id}"]`;
  await expect(page.locator(found)).toBeVisible();
  await settled(page);
  expect(await inCanvas(page, found)).toBe(true);
  await expect(page.locator(`${found} .ring-yellow-400`)).toBeVisible();
  const afterFind = await smallestText(page);
  testInfo.annotations.push({
    type: 'smallest text',
    description: `after Find: ${afterFind.min.toFixed(2)} px ("${afterFind.text}") at zoom ${afterFind.zoom.toFixed(3)}`,
  });
  expect(afterFind.min, `after Find: "${afterFind.text}"`).toBeGreaterThanOrEqual(LEGIBLE_PX);
  await scan('topology at 60 servers (after Find)');

  // 4. A folded box opens on a click: back to the first view, then open a folded chip or host.
  await page.getByLabel('Find a server, volume or host').fill('');
  await page.getByRole('button', { name: 'Back to the first view' }).click();
  await settled(page);
  const note = page.getByText(/^(Drawn one by one|Everything is drawn)/);
  const before = await note.textContent();
  const chip = graph.locator('.react-flow__node-fold, .react-flow__node-host[aria-label*="Folded"]').first();
  await expect(chip).toBeVisible();
  await chip.click();
  await expect(note).not.toHaveText(before ?? '');

  // 5. The project filter names projects (Keystone's names, not ids).
  const options = await page.getByRole('combobox', { name: 'Project' }).locator('option').allTextContents();
  expect(options).toContain('demo');
  expect(options).toContain('admin');
  for (const o of options) expect(o, 'a project shown by its id').not.toMatch(/^[0-9a-f]{32}$/);
});
