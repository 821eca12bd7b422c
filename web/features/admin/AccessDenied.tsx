import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { AUTH_MESSAGES } from '../../../shared/schemas/auth.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';

/** Spec section 6: a non-admin is alerted 'Access denied. Admin privileges required.' and sent home. */
export function useDenyAccess(): () => void {
  const navigate = useNavigate();
  return useCallback(() => {
    window.alert(AUTH_MESSAGES.adminRequired);
    void navigate('/', { replace: true });
  }, [navigate]);
}

/** Shown for a non-admin (or when the server answers 403): alerts once, then goes home. */
export function AccessDenied() {
  const deny = useDenyAccess();
  // Strict mode runs effects twice on the same instance; the alert is shown once.
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    deny();
  }, [deny]);
  return <StatusMessage kind="error" title={AUTH_MESSAGES.adminRequired} />;
}
