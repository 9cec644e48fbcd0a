import { useState } from 'react';

/**
 * An action a form runs: `busy` while it runs, and the API's problem when it fails, kept until the next attempt
 * (or until the form clears it on opening again).
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function run(action: () => Promise<void>): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return { busy, error, setError, run };
}
