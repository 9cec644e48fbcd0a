import { NavLink } from 'react-router-dom';

export function AdminNav() {
  const links = [
    { to: '/admin', label: 'Review queue', end: true },
    { to: '/admin/reports', label: 'Reports', end: false },
    { to: '/admin/skills', label: 'All skills', end: false },
    { to: '/admin/users', label: 'Users', end: false },
    { to: '/admin/scans', label: 'Rescans', end: false },
  ];
  return (
    <nav className="tabs" aria-label="Administration">
      <ul>
        {links.map((l) => (
          <li key={l.to}>
            <NavLink to={l.to} end={l.end} className={({ isActive }) => (isActive ? 'tab active' : 'tab')}>
              {l.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
