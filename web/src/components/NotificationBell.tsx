import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { notifications } from '../api/endpoints';

/** Fired when the console marks notifications read, so the header's count follows at once. */
export const NOTIFICATIONS_CHANGED_EVENT = 'skreg:notifications-changed';
/** How often the header asks again while the console stays open on one page. */
const POLL_MS = 60_000;

export function notificationsChanged(): void {
  window.dispatchEvent(new Event(NOTIFICATIONS_CHANGED_EVENT));
}

/**
 * The header's notifications link with the unread count: asked on every navigation, every minute, and when a page
 * marks some read. Outside the collapsible menu, so it shows at phone width too.
 */
export function NotificationBell() {
  const location = useLocation();
  const [unread, setUnread] = useState<number | null>(null);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    const bump = () => setGeneration((g) => g + 1);
    window.addEventListener(NOTIFICATIONS_CHANGED_EVENT, bump);
    const timer = window.setInterval(bump, POLL_MS);
    return () => {
      window.removeEventListener(NOTIFICATIONS_CHANGED_EVENT, bump);
      window.clearInterval(timer);
    };
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    notifications.list({ page: 1, page_size: 1 }, controller.signal).then(
      (page) => setUnread(page.unread),
      // A failed count (or one aborted by the next) keeps the last; the pages show the registry's errors.
      () => undefined,
    );
    return () => controller.abort();
  }, [location.pathname, generation]);

  const count = unread ?? 0;
  const label = count === 0 ? 'Notifications' : `Notifications, ${count} unread`;
  return (
    <Link to="/notifications" className={count > 0 ? 'notification-bell has-unread' : 'notification-bell'} aria-label={label} title={label}>
      <svg viewBox="0 0 24 24" aria-hidden="true" width="20" height="20">
        <path
          d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15zM10 20a2 2 0 0 0 4 0"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.8"
          strokeLinejoin="round"
        />
      </svg>
      {count > 0 && (
        <span className="notification-count" data-testid="unread-count" aria-hidden="true">
          {count > 99 ? '99+' : count}
        </span>
      )}
    </Link>
  );
}
