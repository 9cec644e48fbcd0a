import { useState } from 'react';

/**
 * Copies text to the clipboard; where the Clipboard API is unavailable it says how to copy by hand. `name` is the
 * button's accessible name when several copy buttons share a page ("Copy the curl command").
 */
export function CopyButton({ text, label = 'Copy', name }: { text: string; label?: string; name?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    window.setTimeout(() => setState('idle'), 2500);
  }
  return (
    <button
      type="button"
      className="button button-small"
      onClick={() => void copy()}
      aria-live="polite"
      // Once copied, the visible word is what a screen reader should hear.
      aria-label={state === 'idle' ? name : undefined}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Select and copy by hand' : label}
    </button>
  );
}
