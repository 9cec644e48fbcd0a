import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApiError, UNAUTHENTICATED_EVENT } from '../api/client';
import { auth } from '../api/endpoints';
import type { CurrentSession, LoginInput, Me, User } from '../api/types';

export type SessionState = { status: 'loading' } | { status: 'anonymous'; ended: boolean } | { status: 'signed-in'; me: Me };

interface SessionApi {
  state: SessionState;
  user: User | null;
  isAdmin: boolean;
  /**
   * Changes whenever someone signs in or out (not when the first check of the session completes), so
   * views whose answers depend on the caller can load again.
   */
  epoch: number;
  signIn: (input: LoginInput) => Promise<User>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

function stateOf(session: CurrentSession): SessionState {
  return session.user && session.auth
    ? { status: 'signed-in', me: { user: session.user, auth: session.auth } }
    : { status: 'anonymous', ended: false };
}

/**
 * Who is signed in, as GET /v1/auth/session reports it: that endpoint answers a visitor 200 with no user
 * (GET /v1/me would answer 401, which the browser logs as a failed request on every anonymous page). The session
 * itself is the HttpOnly cookie the registry sets; the console never sees or stores a secret. Any 401 from the
 * API means the session ended.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [epoch, setEpoch] = useState(0);
  const stateRef = useRef(state);
  stateRef.current = state;

  const load = useCallback(async () => {
    try {
      setState(stateOf(await auth.session()));
    } catch {
      // A registry that cannot be reached shows its own errors on the page that needed it, so the console
      // still opens for public browsing.
      setState({ status: 'anonymous', ended: false });
    }
  }, []);

  useEffect(() => {
    void load();
    const onUnauthenticated = () => {
      if (stateRef.current.status === 'signed-in') {
        setState({ status: 'anonymous', ended: true });
        setEpoch((e) => e + 1);
      }
    };
    window.addEventListener(UNAUTHENTICATED_EVENT, onUnauthenticated);
    return () => window.removeEventListener(UNAUTHENTICATED_EVENT, onUnauthenticated);
  }, [load]);

  const signIn = useCallback(async (input: LoginInput) => {
    const result = await auth.login(input);
    setState(stateOf(await auth.session()));
    setEpoch((e) => e + 1);
    return result.user;
  }, []);

  const signOut = useCallback(async () => {
    try {
      await auth.logout();
    } catch (error) {
      // An already-ended session is signed out all the same.
      if (!(error instanceof ApiError && error.status === 401)) throw error;
    }
    setState({ status: 'anonymous', ended: false });
    setEpoch((e) => e + 1);
  }, []);

  const value = useMemo<SessionApi>(() => {
    const user = state.status === 'signed-in' ? state.me.user : null;
    return { state, user, isAdmin: user?.role === 'admin', epoch, signIn, signOut };
  }, [state, epoch, signIn, signOut]);

  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession needs a SessionProvider');
  return value;
}
