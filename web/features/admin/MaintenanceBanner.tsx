import { useEffect, useState } from 'react';
import { publicSettingsRoute } from '../../../shared/schemas/moderation.ts';
import { request } from '../../lib/api.ts';
import './MaintenanceBanner.css';

/** The banner text, asked once per page load and shared by every mount; any failure means none. */
let banner: Promise<string | null> | null = null;

export function loadBanner(): Promise<string | null> {
  banner ??= request(publicSettingsRoute).then(
    (reply) => bannerText(reply.maintenance_banner),
    () => null,
  );
  return banner;
}

/** Blank text shows no banner. */
export function bannerText(value: string | null | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

/** The maintenance banner an admin set in System Settings, at the top of every page. */
export function MaintenanceBanner() {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void loadBanner().then((value) => {
      if (live) setText(value);
    });
    return () => {
      live = false;
    };
  }, []);
  return <MaintenanceBannerView text={text} />;
}

export function MaintenanceBannerView({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <div className="maintenance-banner" role="status">
      {text}
    </div>
  );
}
