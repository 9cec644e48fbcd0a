import { Link, useSearchParams } from 'react-router-dom';
import { notifications } from '../api/endpoints';
import type { Notification } from '../api/types';
import { PageHeader } from '../components/Layout';
import { notificationsChanged } from '../components/NotificationBell';
import { useNotify } from '../components/Notices';
import { Pagination } from '../components/Pagination';
import { EmptyState, ErrorMessage, Loading } from '../components/States';
import { useAction } from '../hooks/useAction';
import { usePageTitle } from '../hooks/usePageTitle';
import { useResource } from '../hooks/useResource';
import { formatDateTime, formatRelative, plural } from '../lib/format';

const PAGE_SIZE = 20;

/** What the registry told the signed-in user (a webhook it disabled), newest first; each marked read on its own or all at once. */
export function NotificationsPage() {
  usePageTitle('Notifications');
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const setPage = (next: number) => setParams(next === 1 ? {} : { page: String(next) });
  const { resource, reload, setData } = useResource((signal) => notifications.list({ page, page_size: PAGE_SIZE }, signal), [page]);
  const { busy, error, run } = useAction();
  const notify = useNotify();
  const data = resource.data;

  function markedRead(updated: Notification) {
    setData(
      (current) =>
        current && { ...current, items: current.items.map((n) => (n.id === updated.id ? updated : n)), unread: current.unread - 1 },
    );
    notificationsChanged();
  }

  const readAll = () =>
    run(async () => {
      const { marked } = await notifications.readAll();
      notify(marked === 0 ? 'Nothing was unread.' : `${plural(marked, 'notification')} marked read.`);
      reload();
      notificationsChanged();
    });

  return (
    <>
      <PageHeader
        title="Notifications"
        subtitle="What the registry did to your things that you should know about — a webhook it disabled, for one."
        actions={
          data && data.unread > 0 ? (
            <button type="button" className="button" disabled={busy} onClick={() => void readAll()}>
              Mark all read
            </button>
          ) : undefined
        }
      />
      {error !== null && <ErrorMessage error={error} />}
      {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
      {!data && resource.status === 'loading' && <Loading label="Loading notifications…" />}
      {data?.total === 0 && <EmptyState title="No notifications">When the registry needs to tell you something, it shows here.</EmptyState>}
      {data && data.items.length > 0 && (
        <>
          <p className="muted" data-testid="unread-summary">
            {data.unread === 0 ? 'All read.' : `${plural(data.unread, 'unread notification')}.`}
          </p>
          <ul className="notification-list">
            {data.items.map((n) => (
              <NotificationItem key={n.id} notification={n} onRead={markedRead} />
            ))}
          </ul>
          <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onPage={setPage} label="Notification pages" />
        </>
      )}
    </>
  );
}

function NotificationItem({ notification: n, onRead }: { notification: Notification; onRead: (n: Notification) => void }) {
  const { busy, error, run } = useAction();
  const unread = n.read_at === null;
  return (
    <li className={unread ? 'notification notification-unread' : 'notification'} data-testid="notification">
      <div className="notification-head">
        <p className="notification-title">
          {unread && <span className="badge badge-unread">New</span>} {n.title}
        </p>
        <time className="muted small" dateTime={n.created_at} title={formatDateTime(n.created_at)}>
          {formatRelative(n.created_at)}
        </time>
      </div>
      <p className="notification-body">{n.body}</p>
      <div className="notification-actions">
        {n.link !== null && (
          <Link
            className="button button-small button-primary"
            to={n.link}
            onClick={() => unread && void run(async () => onRead(await notifications.read(n.id)))}
          >
            Open the webhook
          </Link>
        )}
        {unread && (
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={() => void run(async () => onRead(await notifications.read(n.id)))}
          >
            Mark read
          </button>
        )}
      </div>
      {error !== null && <ErrorMessage error={error} />}
    </li>
  );
}
