import { useState } from 'react';
import { adminSettingsRoute } from '../../../shared/schemas/moderation.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { request } from '../../lib/api.ts';
import { useApiRead } from '../../lib/useApiRead.ts';
import { AccessDenied } from './AccessDenied.tsx';
import { errorText, isForbidden } from './adminAccess.ts';
import { BannerSetting, ModerationSetting, ThresholdSetting } from './SettingForms.tsx';

/** System Settings: one form a setting, each saved on its own. */
export function SettingsTab() {
  const [attempt, setAttempt] = useState(0);
  const read = useApiRead(`settings#${attempt}`, (signal) => request(adminSettingsRoute, { signal }));

  if (read.status === 'loading') return <StatusMessage kind="loading" title="Loading settings..." />;
  if (read.status === 'error') {
    if (isForbidden(read.error)) return <AccessDenied />;
    return (
      <StatusMessage kind="error" title={errorText(read.error, 'Failed to load settings.')}>
        <button type="button" className="button button--ghost" onClick={() => setAttempt((n) => n + 1)}>
          Try again
        </button>
      </StatusMessage>
    );
  }
  const { settings } = read.data;
  return (
    <div className="admin-settings">
      <ModerationSetting initial={settings.moderation_required} />
      <ThresholdSetting initialCents={settings.payout_threshold_default_cents} />
      <BannerSetting initial={settings.maintenance_banner} />
    </div>
  );
}
