import {
  apiPaths,
  availabilityZoneListSchema,
  healthSchema,
  imageListSchema,
  sessionSchema,
  volumePageSchema,
  volumeTypeListSchema,
} from '@sv/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { connectivity } from '../../lib/connectivity';
import { bff, bffError, recordRequests } from '../../testing/bff';
import { makeSession, makeVolume } from '../../testing/data';
import { server } from '../../testing/msw-server';
import { App } from '../app';
import { listPathFor } from '../list-path';

function Where() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname}</output>;
}

function renderApp(url: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[url]}>
        <App />
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  // Any request after the session ended meets it: here, the pages' data refreshing.
  const refresh = () => void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'session' });
  return { ...result, refresh };
}

const demo = makeSession({
  projects: [
    { id: 'p-demo', name: 'demo' },
    { id: 'p-other', name: 'other' },
  ],
});

/** The BFF of a signed-in demo user with one volume; `expired()` ends the session. */
function signedInBff() {
  let signedIn = true;
  server.use(
    bff.get(apiPaths.session, sessionSchema, () =>
      signedIn ? demo : bffError(401, 'session_expired', 'Your session has ended. Sign in again.'),
    ),
    bff.post(apiPaths.session, sessionSchema, () => {
      signedIn = true;
      return demo;
    }),
    bff.get(
      apiPaths.volumePage,
      volumePageSchema,
      () =>
        signedIn
          ? {
              volumes: [makeVolume({ id: 'vol-1', name: 'dataset' })],
              page: { number: 1, size: 20, nextMarker: null, total: 1, atLeast: 1 },
            }
          : bffError(401, 'session_expired', 'Your session has ended. Sign in again.'),
      { anyQuery: true },
    ),
    bff.get(apiPaths.availabilityZones, availabilityZoneListSchema, {
      zones: [{ name: 'nova', available: true }],
    }),
    bff.get(apiPaths.volumeTypes, volumeTypeListSchema, { types: [] }),
    bff.get(apiPaths.images, imageListSchema, { images: [] }),
    // The signed-in frame watches the dashboard's health (more often when the live stream fails,
    // as it does here: jsdom has no server behind it).
    bff.get(
      apiPaths.health,
      healthSchema,
      { status: 'ok', checks: { cloud: { status: 'ok', ms: 1 } }, checkedAt: 'now' },
      { anyQuery: true },
    ),
  );
  return {
    expire: () => {
      signedIn = false;
    },
  };
}

describe('listPathFor', () => {
  it('sends a detail page to its list and leaves other pages alone', () => {
    expect(listPathFor('/volumes/abc')).toBe('/volumes');
    expect(listPathFor('/servers/abc')).toBe('/servers');
    expect(listPathFor('/volumes')).toBeNull();
    expect(listPathFor('/topology')).toBeNull();
  });
});

describe('App', () => {
  afterEach(() => connectivity.reset());

  it('answers an unknown address with a page that has a heading and ways back', async () => {
    signedInBff();
    renderApp('/no/such/place');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    const page = within(screen.getByRole('main'));
    expect(page.getByText('/no/such/place')).toBeVisible();
    expect(page.getByRole('link', { name: 'Volumes' })).toHaveAttribute('href', '/volumes');
    expect(page.getByRole('button', { name: 'Go back' })).toBeEnabled();
  });

  it('asks to sign in again over the page when the session ends, then finishes what was asked', async () => {
    const user = userEvent.setup();
    const bffState = signedInBff();
    const app = renderApp('/volumes');
    expect(await screen.findByRole('link', { name: 'dataset' })).toBeVisible();

    bffState.expire();
    const sent = recordRequests();
    app.refresh();
    const dialog = await screen.findByRole('dialog', { name: 'Your session has ended' });
    // The page stays underneath, as it was.
    expect(screen.getByRole('link', { name: 'dataset' })).toBeInTheDocument();
    expect(screen.getByLabelText('User name')).toHaveValue('demo');
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();

    await user.type(screen.getByLabelText('Password'), 'demo');
    await user.click(screen.getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(screen.getByLabelText('Location')).toHaveTextContent('/volumes');
    expect(screen.getByRole('link', { name: 'dataset' })).toBeVisible();
    const login = sent.find((r) => r.method === 'POST' && r.path === apiPaths.session);
    await waitFor(() =>
      expect(login?.body).toMatchObject({ username: 'demo', password: 'demo', project: 'demo' }),
    );
  });

  it('goes to the sign-in page when the user gives up signing in again', async () => {
    const user = userEvent.setup();
    const bffState = signedInBff();
    const app = renderApp('/volumes');
    expect(await screen.findByRole('link', { name: 'dataset' })).toBeVisible();
    bffState.expire();
    app.refresh();
    await user.click(await screen.findByRole('button', { name: 'Go to the sign-in page' }));
    expect(await screen.findByRole('heading', { name: 'Sign in to Shared volumes' })).toBeVisible();
  });

  it('goes from a detail page to its list when the project changes', async () => {
    const user = userEvent.setup();
    signedInBff();
    server.use(
      bff.put(apiPaths.sessionProject, sessionSchema, () => ({
        ...demo,
        project: { id: 'p-other', name: 'other' },
      })),
    );
    renderApp('/no-detail/x');
    await screen.findByRole('heading', { name: 'Page not found' });
    await user.selectOptions(screen.getByLabelText('Project'), 'p-other');
    await waitFor(() => expect(screen.getByLabelText('Location')).toHaveTextContent('/volumes'));
  });
});
