import { useEffect } from 'react';
import { Link, NavLink } from 'react-router';
import { Avatar } from '../../components/Avatar.tsx';
import { profilePath } from '../../lib/paths.ts';
import { isMobileViewport, useLayout } from '../../stores/useLayout.ts';
import { useNewestCreators } from './useNewestCreators.ts';
import './Sidebar.css';

export function Sidebar() {
  const open = useLayout((s) => s.sidebarOpen);
  const close = useLayout((s) => s.closeSidebar);
  const suppressed = useLayout((s) => s.sidebarSuppressed);
  const creators = useNewestCreators();

  // As an overlay it closes on Escape; beside the content it stays until toggled.
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && isMobileViewport()) close();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open, close]);

  if (suppressed) return null;

  const closeOnMobile = () => {
    if (isMobileViewport()) close();
  };

  return (
    <>
      <button
        type="button"
        className={`sidebar-backdrop${open ? ' sidebar-backdrop--open' : ''}`}
        aria-label="Close sidebar"
        tabIndex={-1}
        onClick={close}
      />
      <aside id="sidebar" className={`sidebar${open ? ' sidebar--open' : ''}`} data-testid="sidebar" aria-label="Sidebar">
        <nav aria-label="Main">
          <NavLink to="/" end className="sidebar__link" onClick={closeOnMobile}>
            Home
          </NavLink>
        </nav>
        <h2 className="sidebar__heading" id="sidebar-creators">
          Newest creators
        </h2>
        {creators.status === 'loading' && <p className="sidebar__note">Loading creators...</p>}
        {creators.status === 'error' && <p className="sidebar__note">Could not load creators.</p>}
        {creators.status === 'ready' && (
          <ul className="sidebar__creators" aria-labelledby="sidebar-creators">
            {creators.creators.map((creator) => (
              <li key={creator.id}>
                <Link
                  to={profilePath(creator.username)}
                  className="sidebar__creator"
                  data-testid="sidebar-creator"
                  onClick={closeOnMobile}
                >
                  <Avatar name={creator.display_name} imageUrl={creator.profile_image_url} />
                  <span className="sidebar__creator-name">{creator.display_name}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </aside>
    </>
  );
}
