import { useEffect, useState } from 'react';
import { myProfileRoute } from '../../../shared/schemas/studio.ts';
import { request } from '../../lib/api.ts';
import type { UploadTier } from './uploadChecks.ts';

/**
 * The creator's upload tier from their studio profile. Until it is known (or when it cannot
 * be read) the free limit applies; the server checks the real limit anyway.
 */
export function useUploadTier(userId: string): UploadTier {
  const [tier, setTier] = useState<{ userId: string; tier: UploadTier } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    request(myProfileRoute, { signal: controller.signal }).then(
      (reply) => setTier({ userId, tier: reply.profile.tier }),
      () => undefined,
    );
    return () => controller.abort();
  }, [userId]);
  return tier?.userId === userId ? tier.tier : 'free';
}
