import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { useSession } from '../features/auth/api';
import { LoginPage } from '../features/auth/login-page';
import { apiEvents } from '../lib/api-client';
import { queryKeys } from '../lib/query-keys';
import { Layout } from './layout';
import { appRoutes } from './routes';

export function App() {
  const session = useSession();
  const qc = useQueryClient();
  useEffect(() => {
    apiEvents.onSessionEnded = () => qc.setQueryData(queryKeys.session, null);
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
  if (!session.data) {
    return (
      <Routes>
        <Route path="*" element={<LoginPage />} />
      </Routes>
    );
  }
  return (
    <Routes>
      <Route element={<Layout session={session.data} />}>
        <Route index element={<Navigate to="/volumes" replace />} />
        {appRoutes(session.data)}
        <Route path="*" element={<p>There is no such page.</p>} />
      </Route>
    </Routes>
  );
}
