import { useState } from 'react';
import { updateAdminSettingRoute, type SettingKey, type SystemSettings } from '../../../shared/schemas/moderation.ts';
import { request } from '../../lib/api.ts';
import { useDenyAccess } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

/** Saves one setting; a refusal keeps the server's message for the field, a 403 leaves the portal. */
export function useSaveSetting<K extends SettingKey>(key: K) {
  const deny = useDenyAccess();
  const [state, setState] = useState<SaveState>({ kind: 'idle' });

  const save = async (value: SystemSettings[K]): Promise<SystemSettings | null> => {
    setState({ kind: 'saving' });
    try {
      const reply = await request(updateAdminSettingRoute, { params: { key }, body: { value } });
      setState({ kind: 'saved' });
      return reply.settings;
    } catch (error) {
      if (isForbidden(error)) deny();
      else setState({ kind: 'error', message: errorText(error, 'Failed to save the setting.') });
      return null;
    }
  };

  return { state, save, fail: (message: string) => setState({ kind: 'error', message }), reset: () => setState({ kind: 'idle' }) };
}
