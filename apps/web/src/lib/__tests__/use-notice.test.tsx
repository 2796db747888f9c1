import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTICE_MS, useNotice } from '../use-notice';

function Page() {
  const [notice, setNotice] = useNotice();
  return (
    <>
      <button type="button" onClick={() => setNotice('Detach requested')}>
        act
      </button>
      <Link to="/volumes/other">next volume</Link>
      <p role="status">{notice}</p>
    </>
  );
}

function renderPage() {
  render(
    <MemoryRouter initialEntries={['/volumes/one']}>
      <Routes>
        {/* One element for both addresses, as a detail page is when a link leads to a sibling. */}
        <Route path="/volumes/:id" element={<Page />} />
      </Routes>
    </MemoryRouter>,
  );
}

afterEach(() => {
  vi.useRealTimers();
});

describe('useNotice', () => {
  it('clears when the address changes, even on the same page component', async () => {
    renderPage();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'act' }));
    expect(screen.getByRole('status')).toHaveTextContent('Detach requested');
    await user.click(screen.getByRole('link', { name: 'next volume' }));
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('clears on its own after a while', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderPage();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(screen.getByRole('button', { name: 'act' }));
    await act(() => vi.advanceTimersByTimeAsync(NOTICE_MS - 1_000));
    expect(screen.getByRole('status')).toHaveTextContent('Detach requested');
    await act(() => vi.advanceTimersByTimeAsync(2_000));
    expect(screen.getByRole('status')).toHaveTextContent('');
  });
});
