import { useState, type SubmitEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { request } from '../api/client';
import { PageHeader } from '../components/Layout';
import { TextField } from '../components/Field';
import { ErrorMessage } from '../components/States';
import { usePageTitle } from '../hooks/usePageTitle';

interface Decision {
  user_code: string;
  label: string;
  approved: boolean;
}

/**
 * Approves or refuses a `clawhub login` waiting in a terminal: the code it printed, typed or carried in the link it
 * printed. Approving makes an API key of the signed-in user that the waiting command receives.
 */
export function DevicePage() {
  usePageTitle('Sign in a command line');
  const [params] = useSearchParams();
  const [code, setCode] = useState(params.get('code') ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [decision, setDecision] = useState<Decision | null>(null);

  async function answer(approve: boolean) {
    setBusy(true);
    setError(null);
    try {
      setDecision(await request<Decision>('POST', '/v1/device/decision', { body: { user_code: code.trim(), approve } }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  if (decision !== null) {
    return (
      <div className="narrow">
        <PageHeader
          title={decision.approved ? 'Command line signed in' : 'Sign-in refused'}
          subtitle={
            decision.approved
              ? `The terminal that showed ${decision.user_code} now has an API key of yours; you can close this page.`
              : `The terminal that showed ${decision.user_code} was refused.`
          }
        />
        {decision.approved && (
          <p>
            The key is listed on <Link to="/me/keys">your API keys</Link> as “clawhub: {decision.label}”; revoke it there to sign the
            command line out.
          </p>
        )}
      </div>
    );
  }

  return (
    <div className="narrow">
      <PageHeader
        title="Sign in a command line"
        subtitle="Enter the code that “clawhub login” shows in your terminal, and check it is the same."
      />
      <form
        className="card form-card"
        onSubmit={(e: SubmitEvent) => {
          e.preventDefault();
          void answer(true);
        }}
      >
        <TextField
          label="Code"
          name="user_code"
          autoComplete="off"
          required
          placeholder="ABCD-EFGH"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          autoFocus
        />
        {error !== null && <ErrorMessage error={error} />}
        <div className="form-actions">
          <button className="button button-primary" type="submit" disabled={busy || code.trim() === ''}>
            Approve
          </button>
          <button className="button" type="button" disabled={busy || code.trim() === ''} onClick={() => void answer(false)}>
            Refuse
          </button>
        </div>
      </form>
    </div>
  );
}
