import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { messageOf } from '../api/client';
import { registryInfo } from '../lib/meta';
import { useSession } from '../session/session';
import { NotificationBell } from './NotificationBell';
import { useNotify } from './Notices';

function Brand() {
  return (
    <Link to="/" className="brand">
      <svg viewBox="0 0 32 32" aria-hidden="true" className="brand-mark">
        <rect width="32" height="32" rx="7" />
        <path d="M9 11.5 16 7l7 4.5v9L16 25l-7-4.5zM9 11.5 16 16l7-4.5M16 16v9" />
      </svg>
      <span>Skill Registry</span>
    </Link>
  );
}

/**
 * The frame of every page: header with navigation, the main region, footer. After each navigation to a
 * new path, focus moves to the page's heading so keyboard and screen-reader users start at the new content.
 */
export function Layout() {
  const { state, user, isAdmin, signOut } = useSession();
  const notify = useNotify();
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const firstRender = useRef(true);

  useEffect(() => {
    setMenuOpen(false);
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    // The new page may render its heading only after its code or data arrives: look for it for a while,
    // and give up if the person has meanwhile put focus somewhere themselves.
    const started = Date.now();
    let timer = 0;
    const tryFocus = () => {
      const heading = document.querySelector<HTMLElement>('main h1');
      const untouched =
        document.activeElement === null ||
        document.activeElement === document.body ||
        !document.querySelector('main')?.contains(document.activeElement);
      if (heading && untouched) {
        heading.focus();
        return;
      }
      if (!heading && Date.now() - started < 3000) timer = window.setTimeout(tryFocus, 50);
    };
    timer = window.setTimeout(tryFocus, 0);
    return () => window.clearTimeout(timer);
  }, [location.pathname]);

  useEffect(() => {
    if (state.status === 'anonymous' && state.ended) notify('Your session has ended; sign in again to continue.', 'info');
  }, [state, notify]);

  async function onSignOut() {
    try {
      await signOut();
      notify('Signed out.');
      navigate('/');
    } catch (error) {
      notify(messageOf(error), 'error');
    }
  }

  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="site-header">
        <div className="header-inner">
          <Brand />
          {user && <NotificationBell />}
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="site-nav"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span className="visually-hidden">Menu</span>
            <svg viewBox="0 0 24 24" aria-hidden="true" width="22" height="22">
              <path d="M3 6h18M3 12h18M3 18h18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
          <nav id="site-nav" className={menuOpen ? 'site-nav open' : 'site-nav'} aria-label="Main">
            <ul className="nav-links">
              <NavItem to="/" end>
                Browse
              </NavItem>
              {user && (
                <>
                  <NavItem to="/me/skills">My skills</NavItem>
                  <NavItem to="/me/orgs">Organisations</NavItem>
                  <NavItem to="/webhooks">Webhooks</NavItem>
                  <NavItem to="/me/keys">API keys</NavItem>
                  <NavItem to="/me/logs">Call logs</NavItem>
                </>
              )}
              {isAdmin && <NavItem to="/admin">Admin</NavItem>}
            </ul>
            <div className="nav-account">
              {state.status === 'loading' ? null : user ? (
                <>
                  <span className="nav-user" title={user.email}>
                    <span className="avatar" aria-hidden="true">
                      {user.username.slice(0, 1).toUpperCase()}
                    </span>
                    <span className="visually-hidden">Signed in as </span>
                    {user.username}
                    {isAdmin && <span className="badge badge-admin">admin</span>}
                  </span>
                  <button type="button" className="button button-small" onClick={() => void onSignOut()}>
                    Sign out
                  </button>
                </>
              ) : (
                <>
                  <Link className="button button-small" to={`/signin?next=${encodeURIComponent(location.pathname + location.search)}`}>
                    Sign in
                  </Link>
                  {registryInfo.registrationOpen && (
                    <Link className="button button-small button-primary" to="/register">
                      Register
                    </Link>
                  )}
                </>
              )}
            </div>
          </nav>
        </div>
      </header>
      <main id="main" className="site-main">
        <Outlet />
      </main>
      <footer className="site-footer">
        <div className="footer-inner">
          <span>Skill Registry{registryInfo.version ? ` ${registryInfo.version}` : ''}</span>
          <a href="/docs">API reference</a>
          <a href="/v1/openapi.json">OpenAPI document</a>
        </div>
      </footer>
    </div>
  );
}

function NavItem({ to, end, children }: { to: string; end?: boolean; children: ReactNode }) {
  return (
    <li>
      <NavLink to={to} end={end ?? false} className={({ isActive }) => (isActive ? 'nav-link active' : 'nav-link')}>
        {children}
      </NavLink>
    </li>
  );
}

/** The heading block of a page. The h1 takes focus after navigation (see Layout). */
export function PageHeader({
  title,
  subtitle,
  actions,
  children,
}: {
  title: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div className="page-header-text">
        <h1 tabIndex={-1}>{title}</h1>
        {subtitle && <p className="page-subtitle">{subtitle}</p>}
        {children}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </div>
  );
}
