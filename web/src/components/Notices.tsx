import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';

type Tone = 'success' | 'info' | 'error';
interface Notice {
  id: number;
  text: string;
  tone: Tone;
}

const NoticeContext = createContext<((text: string, tone?: Tone) => void) | null>(null);

/**
 * Short confirmations of actions ("Version 1.0.0 uploaded"), shown for a few seconds in a live region so
 * that screen readers announce them too.
 */
export function NoticeProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const next = useRef(1);
  const dismiss = useCallback((id: number) => setNotices((list) => list.filter((n) => n.id !== id)), []);
  const notify = useCallback(
    (text: string, tone: Tone = 'success') => {
      const id = next.current++;
      setNotices((list) => [...list.slice(-2), { id, text, tone }]);
      window.setTimeout(() => dismiss(id), tone === 'error' ? 10_000 : 6_000);
    },
    [dismiss],
  );
  const value = useMemo(() => notify, [notify]);
  return (
    <NoticeContext.Provider value={value}>
      {children}
      <div className="notices" role="status" aria-live="polite">
        {notices.map((n) => (
          <div key={n.id} className={`notice notice-${n.tone}`}>
            <span>{n.text}</span>
            <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => dismiss(n.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </NoticeContext.Provider>
  );
}

export function useNotify(): (text: string, tone?: Tone) => void {
  const notify = useContext(NoticeContext);
  if (!notify) throw new Error('useNotify needs a NoticeProvider');
  return notify;
}
