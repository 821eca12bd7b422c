import { beforeEach, describe, expect, it, vi } from 'vitest';

const api = vi.hoisted(() => ({ request: vi.fn() }));
vi.mock('../../lib/api.ts', () => api);

beforeEach(() => {
  vi.resetModules();
  api.request.mockReset();
});

describe('the maintenance banner', () => {
  it('is asked once per load, however many times it is shown', async () => {
    api.request.mockResolvedValue({ success: true, maintenance_banner: ' Down at 10 pm ' });
    const { loadBanner } = await import('./MaintenanceBanner.tsx');
    expect(await loadBanner()).toBe('Down at 10 pm');
    expect(await loadBanner()).toBe('Down at 10 pm');
    expect(api.request).toHaveBeenCalledTimes(1);
    expect(api.request.mock.calls[0]![0]).toMatchObject({ method: 'GET', url: '/api/settings/public' });
  });

  it('none, blank or a failure shows nothing', async () => {
    const { bannerText } = await import('./MaintenanceBanner.tsx');
    expect(bannerText(null)).toBeNull();
    expect(bannerText('   ')).toBeNull();
    api.request.mockRejectedValue(new Error('offline'));
    const { loadBanner } = await import('./MaintenanceBanner.tsx');
    await expect(loadBanner()).resolves.toBeNull();
  });
});
