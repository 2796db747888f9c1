import { apiPaths, type Session, type Topology, topologySchema } from '@sv/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bff, recordRequests } from '../../../testing/bff';
import { server } from '../../../testing/msw-server';
import TopologyPage from '../components/topology-page';
import { LEGIBLE_ZOOM } from '../layout/dimensions';
import { cloudOf60, sessionFixture, smallTopology } from '../testing/fixtures';
import { generateTopology } from '../testing/generate-topology';

// happy-dom lays nothing out: React Flow reads its canvas size from offsetWidth/offsetHeight and
// draws nothing on a 0x0 pane, so give every element a size for these tests (the graph's canvas
// among them; a test may make it the size it has on a 1440×900 screen).
const sized = ['offsetWidth', 'offsetHeight'] as const;
const originals = sized.map((k) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, k));
const BIG = { width: 1200, height: 800 };
let canvas = BIG;
beforeAll(() => {
  Object.defineProperty(HTMLElement.prototype, 'offsetWidth', {
    configurable: true,
    get: () => canvas.width,
  });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get: () => canvas.height,
  });
});
afterAll(() => {
  sized.forEach((k, i) => {
    const d = originals[i];
    if (d) Object.defineProperty(HTMLElement.prototype, k, d);
  });
});
afterEach(() => {
  canvas = BIG;
});

function renderPage({
  topology = smallTopology(),
  session = sessionFixture(),
  url = '/topology',
}: {
  topology?: Topology;
  session?: Session;
  url?: string;
} = {}) {
  // The same graph whatever the filters: the tests read which filters were asked for.
  server.use(bff.get(apiPaths.topology, topologySchema, topology, { anyQuery: true }));
  const sent = recordRequests();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/topology" element={<TopologyPage session={session} />} />
          <Route path="/servers/:id" element={<p>server detail page</p>} />
          <Route path="/volumes/:id" element={<p>volume detail page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  const urls = () => sent.map((r) => r.path);
  return { sent, urls };
}

/** The graph's region once the answer is in (the region itself is there while it loads). */
async function graph() {
  const region = await screen.findByRole('region', { name: /topology graph/i });
  await waitFor(() => expect(within(region).queryByText('Loading the topology…')).toBeNull());
  return region;
}
const nodeEl = (id: string) => document.querySelector<HTMLElement>(`.react-flow__node[data-id="${id}"]`);

async function waitForEdges(count: number) {
  await waitFor(() => expect(document.querySelectorAll('.react-flow__edge')).toHaveLength(count));
}

describe('topology page', () => {
  it('draws hosts, servers and volumes in a labelled graph region', async () => {
    renderPage();
    const region = await graph();
    await waitFor(() => expect(nodeEl('server:srv-web-1')).not.toBeNull());
    expect(within(region).getByText('compute-1')).toBeTruthy();
    expect(within(region).getByText('Not on a host')).toBeTruthy();
    expect(nodeEl('volume:vol-logs')?.getAttribute('aria-label')).toMatch(/^Volume logs, in-use, shared/);
    expect(screen.getByText(/Everything is drawn: 4 servers and 3 volumes/)).toBeTruthy();
  });

  it('draws read-write edges solid and read-only edges dashed, stuck ones labelled', async () => {
    renderPage();
    await graph();
    await waitForEdges(5);
    const rw = document.querySelectorAll('.react-flow__edge.sv-edge-rw path[data-mode="rw"]');
    const ro = document.querySelectorAll('.react-flow__edge.sv-edge-ro path[data-mode="ro"]');
    expect(ro).toHaveLength(2);
    for (const p of ro) expect(p.getAttribute('stroke-dasharray')).toBe('8 5');
    const solid = [...rw].filter((p) => !p.closest('.sv-edge-stuck'));
    expect(solid).toHaveLength(2);
    for (const p of solid) expect(p.getAttribute('stroke-dasharray')).toBeNull();
    expect(solid[0]?.getAttribute('stroke')).not.toBe(ro[0]?.getAttribute('stroke'));
    const stuck = document.querySelector('.react-flow__edge.sv-edge-stuck path');
    expect(stuck?.getAttribute('data-state')).toBe('attaching');
    expect(stuck?.getAttribute('stroke-dasharray')).toBe('1 6');
    expect(screen.getByText('stuck: attaching')).toBeTruthy();
    // The legend says it in words too.
    expect(screen.getByText('Read-write (solid)')).toBeTruthy();
    expect(screen.getByText('Read-only (dashed)')).toBeTruthy();
  });

  it('flags the volume with several writers, in the graph and the risk panel', async () => {
    renderPage();
    await graph();
    await waitFor(() => expect(nodeEl('volume:vol-shared')).not.toBeNull());
    const volume = nodeEl('volume:vol-shared');
    if (!volume) throw new Error('no volume node');
    expect(within(volume).getByText('2 writers')).toBeTruthy();
    expect(volume.getAttribute('aria-label')).toContain('warning: several writers');

    const risks = screen.getByRole('region', { name: /risks/i });
    expect(within(risks).getByText('Several writers')).toBeTruthy();
    const link = within(risks).getByRole('link', { name: 'shared-data' });
    expect(link.getAttribute('href')).toBe('/volumes/vol-shared');
    expect(within(risks).getByRole('link', { name: 'scratch' }).getAttribute('href')).toBe(
      '/volumes/vol-scratch',
    );
    expect(within(risks).getByText(/Stuck attaching/)).toBeTruthy();
  });

  it('sends the filters to the BFF', async () => {
    const user = userEvent.setup();
    const { urls } = renderPage();
    await graph();
    expect(urls()).toEqual(['/api/topology']);

    await user.selectOptions(screen.getByLabelText('Host'), 'compute-2');
    await waitFor(() => expect(urls()).toContain('/api/topology?host=compute-2'));

    await user.selectOptions(screen.getByLabelText('Volume'), 'vol-logs');
    await waitFor(() => expect(urls()).toContain('/api/topology?host=compute-2&volume=vol-logs'));

    await user.selectOptions(screen.getByLabelText('Project'), 'p-demo');
    await waitFor(() =>
      expect(urls()).toContain('/api/topology?project=p-demo&host=compute-2&volume=vol-logs'),
    );

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect((screen.getByLabelText('Host') as HTMLSelectElement).value).toBe(''));
  });

  it('reads filters from the URL and hides the project filter from members', async () => {
    const { urls } = renderPage({
      session: sessionFixture(false),
      url: '/topology?host=abc123&volume=vol-logs',
    });
    await graph();
    expect(urls()).toEqual(['/api/topology?host=abc123&volume=vol-logs']);
    expect(screen.queryByLabelText('Project')).toBeNull();
  });

  it('lists every attachment in the table view', async () => {
    const user = userEvent.setup();
    renderPage();
    await graph();
    await user.click(screen.getByRole('button', { name: 'Table' }));
    const table = await screen.findByRole('table', { name: /every attachment/i });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(5);
    const text = rows.map((r) =>
      within(r)
        .getAllByRole('cell')
        .slice(0, 5)
        .map((c) => c.textContent),
    );
    expect(text).toContainEqual(['db-1', 'logs', 'read-only', 'attached', 'compute-2']);
    expect(text).toContainEqual([
      'web-1',
      'shared-dataseveral writers',
      'read-write',
      'attached',
      'compute-1',
    ]);
    expect(text).toContainEqual(['web-2', 'scratch', 'read-write', 'attachingstuck', 'compute-1']);
    const web1 = within(table).getByRole('link', { name: 'web-1' });
    expect(web1.getAttribute('href')).toBe('/servers/srv-web-1');

    await user.click(screen.getByLabelText('Only risky attachments'));
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 3);
  });

  it('highlights search matches and counts them', async () => {
    const user = userEvent.setup();
    renderPage();
    await graph();
    await waitFor(() => expect(nodeEl('server:srv-web-1')).not.toBeNull());
    await user.type(screen.getByLabelText('Find a server, volume or host'), 'web');
    await screen.findByText('2 matches highlighted');
    await waitFor(() => expect(nodeEl('server:srv-web-1')?.querySelector('.ring-yellow-400')).not.toBeNull());
    expect(nodeEl('server:srv-db-1')?.querySelector('.ring-yellow-400')).toBeNull();
  });

  it('pans to a risky volume from the risk panel and marks it', async () => {
    const user = userEvent.setup();
    renderPage();
    await graph();
    await waitFor(() => expect(nodeEl('volume:vol-shared')).not.toBeNull());
    await user.click(screen.getByRole('button', { name: 'Show volume shared-data in the graph' }));
    await waitFor(() => expect(nodeEl('volume:vol-shared')?.querySelector('.ring-blue-700')).not.toBeNull());
    // Its attachments are drawn heavier.
    const widths = () =>
      [...document.querySelectorAll('.react-flow__edge')]
        .filter((g) => g.getAttribute('aria-label')?.includes('shared-data'))
        .map((g) => Number(g.querySelector('path')?.getAttribute('stroke-width')));
    await waitFor(() => expect(widths()).toHaveLength(3));
    for (const w of widths()) expect(w).toBeGreaterThan(3);
  });

  it('opens a server on click and a volume on Enter', async () => {
    const user = userEvent.setup();
    renderPage();
    await graph();
    await waitFor(() => expect(nodeEl('volume:vol-logs')).not.toBeNull());
    const volume = nodeEl('volume:vol-logs');
    volume?.focus();
    await user.keyboard('{Enter}');
    await screen.findByText('volume detail page');
  });

  it('opens a server page when a server node is clicked', async () => {
    renderPage();
    await graph();
    await waitFor(() => expect(nodeEl('server:srv-db-1')).not.toBeNull());
    const server = nodeEl('server:srv-db-1');
    if (!server) throw new Error('no server node');
    // A plain click: user-event's mousedown has no `view` in happy-dom, which d3-zoom needs.
    fireEvent.click(server);
    await screen.findByText('server detail page');
  });
});

/** The canvas transform React Flow applies: translate(x, y) scale(zoom). */
function viewport() {
  const style = document.querySelector<HTMLElement>('.react-flow__viewport')?.style.transform ?? '';
  const m = /translate\(([-\d.]+)px,\s*([-\d.]+)px\)\s*scale\(([-\d.]+)\)/.exec(style);
  if (!m) throw new Error(`no viewport transform in "${style}"`);
  return { x: Number(m[1]), y: Number(m[2]), zoom: Number(m[3]) };
}

/** A node's box on screen, from its canvas position and the canvas transform. */
function screenBox(id: string) {
  const el = nodeEl(id);
  const m = /translate\(([-\d.]+)px,\s*([-\d.]+)px\)/.exec(el?.style.transform ?? '');
  if (!el || !m) return null;
  const v = viewport();
  return {
    x: v.x + Number(m[1]) * v.zoom,
    y: v.y + Number(m[2]) * v.zoom,
    w: Number.parseFloat(el.style.width) * v.zoom,
    h: Number.parseFloat(el.style.height) * v.zoom,
  };
}

/** Whether a node is entirely on the canvas. */
function onScreen(id: string): boolean {
  const b = screenBox(id);
  return !!b && b.x >= 0 && b.y >= 0 && b.x + b.w <= canvas.width && b.y + b.h <= canvas.height;
}

describe('topology page at real sizes', () => {
  it('opens on the 60-server cloud with every server that holds a volume drawn, legible and on screen', async () => {
    // The graph's canvas on a 1440×900 screen.
    canvas = { width: 908, height: 630 };
    renderPage({ topology: cloudOf60() });
    await graph();
    await waitFor(() => expect(nodeEl('server:srv-db-1')).not.toBeNull());
    const servers = [...document.querySelectorAll('.react-flow__node-server')];
    expect(servers).toHaveLength(24);
    expect(viewport().zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
    for (const n of document.querySelectorAll('.react-flow__node')) {
      expect(onScreen(n.getAttribute('data-id') ?? ''), n.getAttribute('data-id') ?? '').toBe(true);
    }
    // The servers without volumes are folded, and say so.
    expect(screen.getAllByText('+12 servers without volumes')).toHaveLength(3);
  });

  it('"Show in graph" frames the flagged volume with both writers, legibly', async () => {
    const user = userEvent.setup();
    renderPage({ topology: cloudOf60() });
    await graph();
    await waitFor(() => expect(nodeEl('volume:vol-db-data')).not.toBeNull());
    await user.click(screen.getByRole('button', { name: 'Show volume db-data in the graph' }));
    await waitFor(
      () => {
        for (const id of ['volume:vol-db-data', 'server:srv-db-1', 'server:srv-db-2']) {
          expect(onScreen(id), id).toBe(true);
        }
        expect(viewport().zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
      },
      { timeout: 3000 },
    );
  });

  it('Enter in Find draws a folded match and moves to it, legibly', async () => {
    const user = userEvent.setup();
    const topology = generateTopology({ servers: 500 });
    const target = topology.servers[123];
    if (!target) throw new Error('no server');
    renderPage({ topology });
    await graph();
    await waitFor(() => expect(nodeEl('host:compute-1')).not.toBeNull());
    // At 500 servers the hosts open folded: the server is not drawn.
    expect(nodeEl(`server:${target.id}`)).toBeNull();
    const find = screen.getByLabelText('Find a server, volume or host');
    await user.type(find, `${target.name}{Enter}`);
    await waitFor(
      () => {
        expect(onScreen(`server:${target.id}`)).toBe(true);
        expect(viewport().zoom).toBeGreaterThanOrEqual(LEGIBLE_ZOOM);
      },
      { timeout: 3000 },
    );
    expect(nodeEl(`server:${target.id}`)?.querySelector('.ring-yellow-400')).not.toBeNull();
  });

  it('a click on a folded host shows its servers with volumes', async () => {
    const topology = generateTopology({ servers: 500 });
    renderPage({ topology });
    await graph();
    await waitFor(() => expect(nodeEl('host:compute-2')).not.toBeNull());
    const host = nodeEl('host:compute-2');
    if (!host) throw new Error('no host');
    expect(host.getAttribute('aria-label')).toMatch(
      /^Host compute-2, zone az2, 100 servers \(100 with volumes\).*Folded/,
    );
    fireEvent.click(host);
    await screen.findByText(/^Drawn one by one: 100 of 500 servers/);
    // Taller than the canvas now: its top is brought to the top of the canvas, the rest below.
    await waitFor(() => expect(screenBox('host:compute-2')?.y).toBeCloseTo(16, 0));
    expect(document.querySelectorAll('.react-flow__node-server').length).toBeGreaterThan(20);
    expect(screen.getByRole('button', { name: 'Fold host compute-2' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
  });

  it('opens a folded host from the keyboard, and folds it again with its button', async () => {
    const user = userEvent.setup();
    renderPage({ topology: generateTopology({ servers: 500 }) });
    await graph();
    await waitFor(() => expect(nodeEl('host:compute-4')).not.toBeNull());
    nodeEl('host:compute-4')?.focus();
    await user.keyboard('{Enter}');
    await screen.findByText(/^Drawn one by one: 100 of 500 servers/);
    const fold = await screen.findByRole('button', { name: 'Fold host compute-4' });
    fold.focus();
    await user.keyboard('{Enter}');
    await screen.findByText(/^Drawn one by one: 0 of 500 servers/);
  });

  it('keeps what the user opened across a refresh of the same view', async () => {
    const user = userEvent.setup();
    const { sent } = renderPage({ topology: generateTopology({ servers: 500 }) });
    await graph();
    await waitFor(() => expect(nodeEl('host:compute-2')).not.toBeNull());
    fireEvent.click(nodeEl('host:compute-2') as HTMLElement);
    await screen.findByText(/^Drawn one by one: 100 of 500 servers/);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByText(/^Drawn one by one: 100 of 500 servers/)).toBeTruthy();
    // "Back to the first view" folds it again.
    await user.click(screen.getByRole('button', { name: 'Back to the first view' }));
    await screen.findByText(/^Drawn one by one: 0 of 500 servers/);
  });

  it("shows admins the projects' names in the filter, not their ids", async () => {
    const topology = smallTopology();
    topology.servers.push({
      id: 'srv-x',
      name: 'x-1',
      status: 'ACTIVE',
      hostId: 'compute-1',
      projectId: 'p-other',
    });
    topology.projects = [
      { id: 'p-admin', name: 'admin' },
      { id: 'p-demo', name: 'demo' },
      { id: 'p-other', name: 'research' },
    ];
    renderPage({ topology });
    await graph();
    const select = screen.getByLabelText('Project') as HTMLSelectElement;
    const labels = [...select.options].map((o) => o.textContent);
    expect(labels).toEqual(['All projects', 'admin', 'demo', 'research']);
    expect([...select.options].find((o) => o.textContent === 'research')?.value).toBe('p-other');
  });
});
