import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { PageHeader } from '../components/Layout';
import { Loading } from '../components/States';
import { usePageTitle } from '../hooks/usePageTitle';
import { useSession } from './session';

/** Pages for a signed-in person: a visitor is sent to sign in and brought back afterwards. */
export function RequireUser({ children }: { children: ReactNode }) {
  const { state } = useSession();
  const location = useLocation();
  if (state.status === 'loading') return <Loading label="Checking your session…" />;
  if (state.status === 'anonymous') {
    return <Navigate to={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  }
  return <>{children}</>;
}

export function RequireAdmin({ children }: { children: ReactNode }) {
  const { state, isAdmin } = useSession();
  return <RequireUser>{state.status === 'signed-in' && !isAdmin ? <AdminsOnly /> : children}</RequireUser>;
}

function AdminsOnly() {
  usePageTitle('Administrators only');
  return (
    <PageHeader
      title="Administrators only"
      subtitle="This part of the console is for administrators of the registry. Your account can browse, publish and manage its own skills."
    />
  );
}
