import { apiErrorSchema } from '@sv/shared';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { HttpResponse, http } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { api, ApiRequestError } from '../../../lib/api-client';
import { server } from '../../../testing/msw-server';
import { connectionProblem } from '../connection-banner';
import { ErrorMessage } from '../error-message';

// Errors name the request, so a person can quote one id that leads to the BFF's and the cloud's logs.

const ID = 'req-0f5d8a2e-7c1b-4e8a-9d3f-2a6b1c4e5f70';

describe('ErrorMessage', () => {
  it('shows the request id as selectable text with a copy button', async () => {
    // After setup(): user-event puts a clipboard stub of its own on navigator.
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(
      <ErrorMessage
        title="The volumes could not be loaded"
        error={new ApiRequestError(503, 'cloud_unreachable', 'The cloud cannot be reached.', undefined, ID)}
      />,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The cloud cannot be reached.');
    expect(screen.getByText(ID).tagName).toBe('CODE');
    await user.click(screen.getByRole('button', { name: 'Copy the request ID' }));
    expect(writeText).toHaveBeenCalledWith(ID);
    expect(await screen.findByRole('button', { name: 'Copied the request ID' })).toBeInTheDocument();
  });

  it('shows no id for an error that has none (the request never reached the server)', () => {
    render(<ErrorMessage error={new ApiRequestError(0, 'network', 'No answer.')} />);
    expect(screen.getByRole('alert')).not.toHaveTextContent('Request ID');
  });
});

describe('api()', () => {
  it("takes the id from the error body, or from X-Request-Id when the body is not the BFF's", async () => {
    server.use(
      http.get('/api/a', () =>
        HttpResponse.json(
          apiErrorSchema.parse({ error: { code: 'not_found', message: 'No.', requestId: ID } }),
          {
            status: 404,
          },
        ),
      ),
      // A proxy in front of the BFF answering for it.
      http.get('/api/b', () =>
        HttpResponse.html('<html>proxy</html>', { status: 502, headers: { 'X-Request-Id': 'abc123' } }),
      ),
    );
    await expect(api('GET', '/api/a', null)).rejects.toMatchObject({ status: 404, requestId: ID });
    await expect(api('GET', '/api/b', null)).rejects.toMatchObject({ status: 502, requestId: 'abc123' });
  });
});

describe('connectionProblem', () => {
  const well = { server: true, cloud: true, database: true, liveUpdateFailures: 0 };
  it('names the part that is down, the nearest first, and says the data may be out of date', () => {
    expect(connectionProblem(well)).toBeNull();
    expect(connectionProblem({ ...well, server: false, cloud: false })).toMatch(
      /^The dashboard server cannot be reached\. The data shown may be out of date/,
    );
    expect(connectionProblem({ ...well, cloud: false })).toMatch(/^The cloud cannot be reached right now\./);
    expect(connectionProblem({ ...well, database: false })).toMatch(/database cannot be reached/);
  });
  it('waits for a second live-update failure in a row before saying so', () => {
    expect(connectionProblem({ ...well, liveUpdateFailures: 1 })).toBeNull();
    expect(connectionProblem({ ...well, liveUpdateFailures: 2 })).toMatch(
      /^Live updates are interrupted: the data shown may be out of date/,
    );
  });
});
