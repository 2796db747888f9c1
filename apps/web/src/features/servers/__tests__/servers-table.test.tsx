import {
  acceptedSchema,
  apiPaths,
  availabilityZoneListSchema,
  type ListPage,
  projectListSchema,
  type Server,
  serverPageSchema,
} from '@sv/shared';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { bff, bffError, recordRequests } from '../../../testing/bff';
import { makeServer, makeSession } from '../../../testing/data';
import { server as network } from '../../../testing/msw-server';
import { renderWithProviders } from '../../../testing/render';
import { ServersPage } from '../components/servers-page';

const rows = Array.from({ length: 20 }, (_, i) =>
  makeServer({ id: `srv-${i}`, name: `web-${i}`, status: i < 2 ? 'ERROR' : 'ACTIVE' }),
);

/** The BFF's list: `page` says where this page sits; every query gets it. */
function listAnswers(servers: Server[], page: Partial<ListPage> = {}) {
  network.use(
    bff.get(
      apiPaths.serverPage,
      serverPageSchema,
      ({ url }) => ({
        servers,
        page: {
          number: Number(url.searchParams.get('page') ?? 1),
          size: 20,
          nextMarker: null,
          total: servers.length,
          atLeast: servers.length,
          ...page,
        },
      }),
      { anyQuery: true },
    ),
    bff.get(apiPaths.availabilityZones, availabilityZoneListSchema, {
      zones: [
        { name: 'nova', available: true },
        { name: 'az2', available: true },
      ],
    }),
    bff.get(apiPaths.projects, projectListSchema, {
      projects: [
        { id: 'p-demo', name: 'demo' },
        { id: 'p-ops', name: 'ops' },
      ],
    }),
  );
}

const listCalls = (calls: { path: string }[]) =>
  calls
    .filter((c) => c.path.startsWith(apiPaths.serverPage))
    .map((c) => new URL(c.path, 'http://x').searchParams);

describe('The servers list', () => {
  it('asks for the view its URL holds, so a shared link or a reload shows the same page', async () => {
    listAnswers(rows.slice(0, 5), { total: null, atLeast: 46, nextMarker: 'srv-4' });
    const calls = recordRequests();
    renderWithProviders(<ServersPage session={makeSession()} />, {
      url: '/servers?q=web&status=ERROR&zone=az2&sort=status&dir=desc&page=3&limit=20',
    });
    await screen.findByRole('link', { name: 'web-0' });
    const asked = listCalls(calls)[0];
    expect(Object.fromEntries(asked ?? [])).toEqual({
      q: 'web',
      status: 'ERROR',
      zone: 'az2',
      sort: 'status',
      dir: 'desc',
      limit: '20',
      page: '3',
    });
    expect(screen.getByRole('searchbox', { name: 'Search servers by name or ID' })).toHaveValue('web');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('ERROR');
    expect(screen.getByRole('columnheader', { name: /Status/ })).toHaveAttribute('aria-sort', 'descending');
    // Nova does not count: "N+" until the last page.
    expect(screen.getByText('41–45 of 46+ servers')).toBeInTheDocument();
    expect(screen.getByText('Page 3')).toBeInTheDocument();
  });

  it('searches on Enter, sorts from the headings and pages with the marker, each from page 1 again', async () => {
    listAnswers(rows, { total: null, atLeast: 21, nextMarker: 'srv-19' });
    const calls = recordRequests();
    const user = userEvent.setup();
    renderWithProviders(<ServersPage session={makeSession()} />, { url: '/servers' });
    await screen.findByRole('link', { name: 'web-0' });
    expect(screen.getByText('1–20 of 21+ servers')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('page')).toBe('2'));
    expect(listCalls(calls).at(-1)?.get('marker')).toBe('srv-19');

    await user.type(screen.getByRole('searchbox', { name: 'Search servers by name or ID' }), 'db-7{Enter}');
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('q')).toBe('db-7'));
    expect(listCalls(calls).at(-1)?.get('page')).toBe('1');
    expect(listCalls(calls).at(-1)?.has('marker')).toBe(false);

    // The heading is a button: Tab to it and press Enter.
    const sortByStatus = within(screen.getByRole('columnheader', { name: /Status/ })).getByRole('button');
    sortByStatus.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('sort')).toBe('status'));
    expect(listCalls(calls).at(-1)?.get('dir')).toBe('asc');
    await user.click(sortByStatus);
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('dir')).toBe('desc'));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Has volumes' }), 'no');
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('attached')).toBe('no'));
    expect(listCalls(calls).at(-1)?.get('q')).toBe('db-7');
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(listCalls(calls).at(-1)?.has('q')).toBe(false));
    expect(listCalls(calls).at(-1)?.get('sort')).toBe('status');
  }, 20_000);

  it('gives admins the project filter by name and shows project names, not ids', async () => {
    listAnswers([makeServer({ id: 's-ops', name: 'ops-1', projectId: 'p-ops' })]);
    const calls = recordRequests();
    const user = userEvent.setup();
    renderWithProviders(<ServersPage session={makeSession({ isAdmin: true })} />, { url: '/servers' });
    await screen.findByRole('link', { name: 'ops-1' });
    const project = screen.getByRole('combobox', { name: 'Project' });
    await waitFor(() => expect(within(project).getByRole('option', { name: 'ops' })).toBeInTheDocument());
    await user.selectOptions(project, 'p-ops');
    await waitFor(() => expect(listCalls(calls).at(-1)?.get('project')).toBe('p-ops'));
    const row = (await screen.findByRole('link', { name: 'ops-1' })).closest('tr') as HTMLElement;
    expect(within(row).getByText('ops')).toBeInTheDocument();
    expect(row).not.toHaveTextContent('p-ops');
  });

  it('deletes the ticked servers after one confirmation, showing each outcome and the refusal’s reason', async () => {
    listAnswers(rows.slice(0, 4));
    network.use(
      bff.delete(`${apiPaths.servers}/:id`, acceptedSchema, ({ params }) =>
        params.id === 'srv-1'
          ? bffError(409, 'conflict', 'Instance srv-1 is locked')
          : { accepted: true as const },
      ),
    );
    const calls = recordRequests();
    const user = userEvent.setup();
    renderWithProviders(<ServersPage session={makeSession()} />, { url: '/servers' });
    await screen.findByRole('link', { name: 'web-0' });
    await user.click(screen.getByRole('checkbox', { name: 'Select web-0' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select web-1' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete selected…' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 2 servers?' });
    expect(within(dialog).getByText('web-0')).toBeInTheDocument();
    expect(within(dialog).getByText('web-1')).toBeInTheDocument();
    // Nothing is deleted before the confirmation; Cancel has the focus.
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Delete 2' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent('1 of 2 accepted; 1 refused');
    expect(within(dialog).getByText('Deleting')).toBeInTheDocument();
    expect(within(dialog).getByText('Refused: Instance srv-1 is locked')).toBeInTheDocument();
    expect(
      calls
        .filter((c) => c.method === 'DELETE')
        .map((c) => c.path)
        .sort(),
    ).toEqual([apiPaths.server('srv-0'), apiPaths.server('srv-1')]);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('selects every row of the page from the heading', async () => {
    listAnswers(rows.slice(0, 3));
    const user = userEvent.setup();
    renderWithProviders(<ServersPage session={makeSession()} />, { url: '/servers' });
    await screen.findByRole('link', { name: 'web-0' });
    await user.click(screen.getByRole('checkbox', { name: 'Select every server on this page' }));
    expect(screen.getByText('3 selected')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByText('3 selected')).toBeNull();
  });
});
