/** The profile's tier decides its badge and, on the third tier, that the page shows no sidebar (spec section 2). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLayout } from '../../stores/useLayout.ts';
import { loadProfile } from './ProfilePage.tsx';

const profile = { username: 'maker', display_name: 'Maker', bio: '', profile_image_url: null, cover_image_url: null };

function serve(subscription: Response | Error) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = String(input);
      if (url.endsWith('/subscription')) {
        if (subscription instanceof Error) throw subscription;
        return subscription.clone();
      }
      return new Response(JSON.stringify({ success: true, profile, videos: [] }), { status: 200 });
    }),
  );
}

const tierReply = (tier: 'free' | 'pro', isThirdTier: boolean) =>
  new Response(JSON.stringify({ success: true, tier, status: 'active', isThirdTier }), { status: 200 });

afterEach(() => {
  vi.unstubAllGlobals();
  useLayout.setState({ sidebarSuppressed: false });
});

describe("a profile's tier", () => {
  it('a third-tier owner: the page asks for no sidebar; the badge follows the tier', async () => {
    serve(tierReply('pro', true));
    const onThirdTier = vi.fn();
    const { creator } = await loadProfile('maker', new AbortController().signal, onThirdTier);
    expect(onThirdTier).toHaveBeenCalledWith(true);
    expect(creator).toMatchObject({ username: 'maker', tier: 'pro' });
  });

  it('any other owner, or a tier that cannot be read: the sidebar stays', async () => {
    serve(tierReply('pro', false));
    const onThirdTier = vi.fn();
    expect((await loadProfile('maker', new AbortController().signal, onThirdTier)).creator).toMatchObject({ tier: 'pro' });
    expect(onThirdTier).toHaveBeenLastCalledWith(false);

    serve(new TypeError('offline'));
    const { creator } = await loadProfile('maker', new AbortController().signal, onThirdTier);
    expect(creator).not.toHaveProperty('tier');
    expect(onThirdTier).toHaveBeenLastCalledWith(false);
  });
});
