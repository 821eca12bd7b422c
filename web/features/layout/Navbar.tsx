import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Icon } from '../../components/Icon.tsx';
import { useAuth } from '../../stores/useAuth.ts';
import { useBrowse } from '../../stores/useBrowse.ts';
import { useLayout } from '../../stores/useLayout.ts';
import { AuthActions } from './AuthActions.tsx';
import { Logo } from './Logo.tsx';
import { SearchForm } from './SearchForm.tsx';
import './Navbar.css';

export function Navbar({ cartButton }: { cartButton: ReactNode }) {
  const sidebarOpen = useLayout((s) => s.sidebarOpen);
  const toggleSidebar = useLayout((s) => s.toggleSidebar);
  const sidebarSuppressed = useLayout((s) => s.sidebarSuppressed);
  const resetBrowse = useBrowse((s) => s.reset);
  // Hidden while a sign-in is being confirmed (spec section 2).
  const signInPending = useAuth((s) => s.status === 'pending');
  // Mobile only: the search box collapses to an icon and opens over the bar.
  const [searchOpen, setSearchOpen] = useState(false);

  return (
    <header className={`navbar${searchOpen ? ' navbar--search-open' : ''}`}>
      <div className="navbar__start">
        {!sidebarSuppressed && (
          <button
            type="button"
            className="icon-button"
            aria-label="Toggle sidebar"
            aria-controls="sidebar"
            aria-expanded={sidebarOpen}
            onClick={toggleSidebar}
          >
            <Icon name="menu" />
          </button>
        )}
        <Link to="/" className="navbar__logo" aria-label="FrameMerch home" onClick={resetBrowse}>
          <Logo />
          <span className="navbar__wordmark" aria-hidden="true">
            FrameMerch
          </span>
        </Link>
      </div>

      <SearchForm autoFocus={searchOpen} onClose={() => setSearchOpen(false)} />

      <div className="navbar__end">
        <button type="button" className="icon-button navbar__search-open" aria-label="Open search" onClick={() => setSearchOpen(true)}>
          <Icon name="search" />
        </button>
        {cartButton}
        {!signInPending && (
          <Link to="/upload" className="icon-button" aria-label="Upload">
            <Icon name="upload" />
          </Link>
        )}
        <AuthActions />
      </div>
    </header>
  );
}
