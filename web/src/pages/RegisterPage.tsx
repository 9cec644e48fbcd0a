import { useState, type SubmitEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router-dom';
import { ApiError } from '../api/client';
import { auth } from '../api/endpoints';
import { TextField } from '../components/Field';
import { PageHeader } from '../components/Layout';
import { useNotify } from '../components/Notices';
import { ErrorMessage } from '../components/States';
import { usePageTitle } from '../hooks/usePageTitle';
import { registryInfo } from '../lib/meta';
import { accountProblems, hasProblems } from '../lib/rules';
import { useSession } from '../session/session';
import { safeNext } from './SignInPage';

export function RegisterPage() {
  usePageTitle('Create an account');
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const { state, signIn } = useSession();
  const navigate = useNavigate();
  const notify = useNotify();
  const [fields, setFields] = useState({ username: '', email: '', password: '' });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (state.status === 'signed-in' && !busy) return <Navigate to={next} replace />;

  const problems = accountProblems(fields);
  const serverErrors = error instanceof ApiError ? Object.fromEntries(error.errors.map((e) => [e.field, e.message])) : {};
  const show = (field: keyof typeof fields) => (touched[field] === true || submitted ? problems[field] : undefined) ?? serverErrors[field];

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (hasProblems(problems)) return;
    setBusy(true);
    setError(null);
    try {
      await auth.register({ username: fields.username.trim(), email: fields.email.trim(), password: fields.password });
      await signIn({ login: fields.username.trim(), password: fields.password });
      notify(`Welcome, ${fields.username.trim()}. Your account is ready.`);
      navigate(next, { replace: true });
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  }

  if (!registryInfo.registrationOpen) {
    return (
      <div className="narrow">
        <PageHeader
          title="Registration is closed"
          subtitle="On this registry, administrators create accounts. Ask one for an account, then sign in."
        />
        <Link className="button" to="/signin">
          Sign in
        </Link>
      </div>
    );
  }

  const set = (field: keyof typeof fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [field]: e.target.value }));
  const blur = (field: string) => () => setTouched((t) => ({ ...t, [field]: true }));

  return (
    <div className="narrow">
      <PageHeader title="Create an account" subtitle="An account lets you publish skills; browsing and downloading need none." />
      <form className="card form-card" onSubmit={(e) => void submit(e)} noValidate>
        <TextField
          label="Username"
          name="username"
          autoComplete="username"
          required
          value={fields.username}
          onChange={set('username')}
          onBlur={blur('username')}
          error={show('username')}
          hint="2 to 39 characters: lower-case letters, digits, “_” and “-”."
          autoFocus
        />
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={fields.email}
          onChange={set('email')}
          onBlur={blur('email')}
          error={show('email')}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          value={fields.password}
          onChange={set('password')}
          onBlur={blur('password')}
          error={show('password')}
          hint="At least 8 characters; not a commonly used password, and not your username or email."
        />
        {error !== null && <ErrorMessage error={error} />}
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Creating your account…' : 'Create account'}
        </button>
        <p className="form-footer">
          Already registered? <Link to="/signin">Sign in</Link>
        </p>
      </form>
    </div>
  );
}
