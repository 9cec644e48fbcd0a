import { useState, type SubmitEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../components/Layout';
import { useNotify } from '../components/Notices';
import { ErrorMessage } from '../components/States';
import { TextField } from '../components/Field';
import { usePageTitle } from '../hooks/usePageTitle';
import { registryInfo } from '../lib/meta';
import { useSession } from '../session/session';

/** Only paths inside the console are followed after sign-in, never another site. */
export function safeNext(value: string | null, fallback = '/me/skills'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  if (value.startsWith('/signin') || value.startsWith('/register')) return fallback;
  return value;
}

export function SignInPage() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const { state, signIn } = useSession();
  const navigate = useNavigate();
  const notify = useNotify();
  const [login, setLogin] = useState(params.get('login') ?? '');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (state.status === 'signed-in' && !busy) return <Navigate to={next} replace />;

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const user = await signIn({ login: login.trim(), password });
      notify(`Welcome back, ${user.username}.`);
      navigate(next, { replace: true });
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  }

  return (
    <div className="narrow">
      <PageHeader title="Sign in" subtitle="Publish skills, manage API keys and read your call logs." />
      <form className="card form-card" onSubmit={(e) => void submit(e)}>
        <TextField
          label="Username or email"
          name="login"
          autoComplete="username"
          required
          value={login}
          onChange={(e) => setLogin(e.target.value)}
          autoFocus
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error !== null && <ErrorMessage error={error} />}
        <button type="submit" className="button button-primary button-block" disabled={busy || login.trim() === '' || password === ''}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {registryInfo.registrationOpen && (
          <p className="form-footer">
            New here? <Link to={`/register${params.get('next') ? `?next=${encodeURIComponent(next)}` : ''}`}>Create an account</Link>
          </p>
        )}
      </form>
    </div>
  );
}
