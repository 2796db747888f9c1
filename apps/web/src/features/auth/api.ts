import { apiPaths, type LoginRequest, sessionSchema } from '@sv/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiRequestError, setCsrfToken } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/**
 * Drops every cached answer of the previous identity or project but the session itself:
 * clear() would also detach the session query the app is watching, so the new session
 * would not reach it until a reload.
 */
function forgetAllButSession(qc: ReturnType<typeof useQueryClient>) {
  qc.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.session[0] });
}

/** The signed-in session, or null when signed out. Other errors (cloud down) are thrown. */
export function useSession() {
  return useQuery({
    queryKey: queryKeys.session,
    queryFn: async () => {
      try {
        const s = await api('GET', apiPaths.session, sessionSchema);
        setCsrfToken(s.csrfToken);
        return s;
      } catch (err) {
        if (err instanceof ApiRequestError && err.status === 401) return null;
        throw err;
      }
    },
    staleTime: 60_000,
  });
}

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginRequest) => api('POST', apiPaths.session, sessionSchema, input),
    onSuccess: (s) => {
      setCsrfToken(s.csrfToken);
      forgetAllButSession(qc);
      qc.setQueryData(queryKeys.session, s);
    },
  });
}

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api('DELETE', apiPaths.session, null),
    onSettled: () => {
      setCsrfToken(null);
      forgetAllButSession(qc);
      qc.setQueryData(queryKeys.session, null);
    },
  });
}

export function useSwitchProject() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (projectId: string) => api('PUT', apiPaths.sessionProject, sessionSchema, { projectId }),
    onSuccess: (s) => {
      setCsrfToken(s.csrfToken);
      forgetAllButSession(qc);
      qc.setQueryData(queryKeys.session, s);
    },
  });
}
