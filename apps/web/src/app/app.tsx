import type { Session } from '@sv/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { sameIdentity, useSession } from '../features/auth/api';
import { LoginPage } from '../features/auth/login-page';
import { SessionEndedDialog } from '../features/auth/session-ended-dialog';
import { apiEvents, sessionGate } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';
import { Layout } from './layout';
import { listPathFor } from './list-path';
import { NotFoundPage } from './not-found-page';
import { appRoutes } from './routes';

export function App() {
  const session = useSession();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  // The session that ended while the user was working: its pages stay on screen under the
  // "sign in again" dialog.
  const [ended, setEnded] = useState<Session | null>(null);
  useEffect(() => {
    apiEvents.onSessionEnded = () => {
      const last = qc.getQueryData<Session | null>(queryKeys.session);
      if (last) setEnded(last);
      qc.setQueryData(queryKeys.session, null);
      return !!last || sessionGate.waiting;
    };
    return () => {
      apiEvents.onSessionEnded = () => false;
    };
  }, [qc]);

  if (session.isPending) {
    return (
      <p className="p-6 text-slate-600" role="status">
        Loading…
      </p>
    );
  }
  if (session.isError) {
    return (
      <main className="mx-auto max-w-lg p-6">
        <h1 className="text-xl font-semibold">The dashboard cannot reach its server</h1>
        <p className="mt-2 text-slate-700">{session.error.message}</p>
        <button
          type="button"
          className="mt-4 rounded bg-blue-700 px-4 py-2 text-white"
          onClick={() => session.refetch()}
        >
          Try again
        </button>
      </main>
    );
  }
  const shown = session.data ?? ended;
  if (!shown) {
    return (
      <Routes>
        <Route path="*" element={<LoginPage />} />
      </Routes>
    );
  }
  const signedInAgain = (next: Session) => {
    const same = sameIdentity(shown, next);
    setEnded(null);
    sessionGate.settle(same);
    const list = listPathFor(location.pathname);
    if (!same && list) navigate(list);
  };
  const leave = () => {
    setEnded(null);
    sessionGate.settle(false);
  };
  return (
    <>
      <Routes>
        <Route element={<Layout session={shown} />}>
          <Route index element={<Navigate to="/volumes" replace />} />
          {appRoutes(shown)}
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
      {!session.data && ended && (
        <SessionEndedDialog previous={ended} onSignedIn={signedInAgain} onLeave={leave} />
      )}
    </>
  );
}
