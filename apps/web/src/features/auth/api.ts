import { apiPaths, type LoginRequest, type Session, sessionSchema } from '@sv/shared';
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

/** The same user in the same project: what the cache holds is still theirs. */
export const sameIdentity = (a: Session, b: Session) =>
  a.user.id === b.user.id && a.project.id === b.project.id;

/**
 * Signs in. `previous`: the session that ended while the user was working; when they sign in again as
 * the same user in the same project, the cache is kept and refreshed rather than dropped, so the page
 * (and an open dialog) stays as it was.
 */
export function useLogin({ previous }: { previous?: Session } = {}) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginRequest) => api('POST', apiPaths.session, sessionSchema, input),
    onSuccess: (s) => {
      setCsrfToken(s.csrfToken);
      if (previous && sameIdentity(previous, s)) {
        void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.session[0] });
      } else {
        forgetAllButSession(qc);
      }
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
