import { useId, useState } from 'react';
import { admin } from '../../api/endpoints';
import type { User, UserChange } from '../../api/types';
import { ConfirmDialog } from '../../components/Dialog';
import { PageHeader } from '../../components/Layout';
import { useNotify } from '../../components/Notices';
import { Pagination } from '../../components/Pagination';
import { EmptyState, ErrorMessage, Loading } from '../../components/States';
import { usePageTitle } from '../../hooks/usePageTitle';
import { useResource } from '../../hooks/useResource';
import { pageParam, useSearchParam, useSearchParamText } from '../../hooks/useSearchParamText';
import { formatDate, plural } from '../../lib/format';
import { useSession } from '../../session/session';
import { AdminNav } from './AdminNav';

const PAGE_SIZE = 25;

interface PendingChange {
  user: User;
  change: UserChange;
  title: string;
  label: string;
  effect: string;
  danger: boolean;
}

/** Accounts: search, filter, promote or demote, disable or enable. */
export function AdminUsersPage() {
  usePageTitle('Users');
  const id = useId();
  const notify = useNotify();
  const { user: me } = useSession();
  const [params, set] = useSearchParam();
  const [text, setText] = useSearchParamText('q');
  const q = params.get('q') ?? '';
  const role = params.get('role') === 'admin' ? 'admin' : params.get('role') === 'user' ? 'user' : undefined;
  const disabled = params.get('disabled') === 'true' ? true : params.get('disabled') === 'false' ? false : undefined;
  const page = pageParam(params);
  const { resource, reload, setData } = useResource(
    (signal) => admin.users({ q, role, disabled, page, page_size: PAGE_SIZE }, signal),
    [q, role, disabled, page],
  );
  const [pending, setPending] = useState<PendingChange | null>(null);
  const data = resource.data;

  async function apply() {
    if (!pending) return;
    const updated = await admin.updateUser(pending.user.id, pending.change);
    setData((current) => current && { ...current, items: current.items.map((u) => (u.id === updated.id ? updated : u)) });
    notify(`${updated.username} is now ${updated.disabled ? 'disabled' : 'active'} (${updated.role}).`);
  }

  return (
    <>
      <PageHeader title="Administration" subtitle="Review drafts, moderate published skills and manage accounts." />
      <AdminNav />
      <div className="toolbar">
        <div className="field field-inline grow">
          <label htmlFor={`${id}-q`} className="visually-hidden">
            Search users
          </label>
          <input
            id={`${id}-q`}
            type="search"
            placeholder="Search by username or email"
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
        </div>
        <div className="field field-inline">
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} value={role ?? ''} onChange={(e) => set('role', e.target.value)}>
            <option value="">Any</option>
            <option value="user">User</option>
            <option value="admin">Admin</option>
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor={`${id}-state`}>State</label>
          <select
            id={`${id}-state`}
            value={disabled === undefined ? '' : String(disabled)}
            onChange={(e) => set('disabled', e.target.value)}
          >
            <option value="">Any</option>
            <option value="false">Active</option>
            <option value="true">Disabled</option>
          </select>
        </div>
      </div>
      <section aria-busy={resource.status === 'loading'} aria-labelledby={`${id}-count`}>
        <h2 id={`${id}-count`} className="results-count" aria-live="polite">
          {data ? plural(data.total, 'user') : 'Users'}
        </h2>
        {resource.status === 'error' && <ErrorMessage error={resource.error} retry={reload} />}
        {!data && resource.status === 'loading' && <Loading label="Loading users…" />}
        {data?.items.length === 0 && <EmptyState title="No users match" />}
        {data && data.items.length > 0 && (
          <>
            <div className="table-scroll">
              <table className="table users-table">
                <caption className="visually-hidden">Users</caption>
                <thead>
                  <tr>
                    <th scope="col">Username</th>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">State</th>
                    <th scope="col">Joined</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {data.items.map((user) => {
                    const self = user.id === me?.id;
                    return (
                      <tr key={user.id}>
                        <th scope="row">
                          {user.username}
                          {self && <span className="muted small"> (you)</span>}
                        </th>
                        <td>{user.email}</td>
                        <td>{user.role === 'admin' ? <span className="badge badge-admin">admin</span> : 'user'}</td>
                        <td>
                          {user.disabled ? (
                            <span className="badge badge-deprecated">disabled</span>
                          ) : (
                            <span className="badge badge-published">active</span>
                          )}
                        </td>
                        <td className="nowrap">{formatDate(user.created_at)}</td>
                        <td>
                          <div className="row-actions">
                            <button
                              type="button"
                              className="button button-small"
                              disabled={self}
                              title={self ? 'You cannot change your own role' : undefined}
                              onClick={() =>
                                setPending(
                                  user.role === 'admin'
                                    ? {
                                        user,
                                        change: { role: 'user' },
                                        title: `Make ${user.username} an ordinary user?`,
                                        label: 'Remove admin role',
                                        effect: 'They lose moderation and user management at once.',
                                        danger: true,
                                      }
                                    : {
                                        user,
                                        change: { role: 'admin' },
                                        title: `Make ${user.username} an administrator?`,
                                        label: 'Make admin',
                                        effect: 'They can publish and deprecate any skill and manage every account.',
                                        danger: false,
                                      },
                                )
                              }
                            >
                              {user.role === 'admin' ? 'Remove admin' : 'Make admin'}{' '}
                              <span className="visually-hidden">{user.username}</span>
                            </button>
                            <button
                              type="button"
                              className={user.disabled ? 'button button-small' : 'button button-small button-danger-outline'}
                              disabled={self}
                              title={self ? 'You cannot disable yourself' : undefined}
                              onClick={() =>
                                setPending(
                                  user.disabled
                                    ? {
                                        user,
                                        change: { disabled: false },
                                        title: `Enable ${user.username}?`,
                                        label: 'Enable',
                                        effect: 'They can sign in again; their API keys work again.',
                                        danger: false,
                                      }
                                    : {
                                        user,
                                        change: { disabled: true },
                                        title: `Disable ${user.username}?`,
                                        label: 'Disable',
                                        effect: 'Their sessions end and their API keys stop working at once.',
                                        danger: true,
                                      },
                                )
                              }
                            >
                              {user.disabled ? 'Enable' : 'Disable'} <span className="visually-hidden">{user.username}</span>
                            </button>
                          </div>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <Pagination page={page} pageSize={PAGE_SIZE} total={data.total} onPage={(p) => set('page', p === 1 ? null : String(p))} />
          </>
        )}
      </section>
      <ConfirmDialog
        open={pending !== null}
        title={pending?.title ?? ''}
        confirmLabel={pending?.label ?? ''}
        tone={pending?.danger ? 'danger' : 'default'}
        onConfirm={apply}
        onClose={() => setPending(null)}
      >
        <p>{pending?.effect}</p>
      </ConfirmDialog>
    </>
  );
}
