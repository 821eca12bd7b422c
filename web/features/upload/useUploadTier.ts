import { useEffect, useState } from 'react';
import { myProfileRoute } from '../../../shared/schemas/studio.ts';
import { request } from '../../lib/api.ts';
import type { UploadTier } from './uploadChecks.ts';

/**
 * The creator's upload tier from their studio profile, or null until it is known (or when it
 * cannot be read): the page then refuses nothing by size that Pro would take, and the server,
 * which checks the real limit anyway, has the last word.
 */
export function useUploadTier(userId: string): UploadTier | null {
  const [tier, setTier] = useState<{ userId: string; tier: UploadTier } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    request(myProfileRoute, { signal: controller.signal }).then(
      (reply) => setTier({ userId, tier: reply.profile.tier }),
      () => undefined,
    );
    return () => controller.abort();
  }, [userId]);
  return tier?.userId === userId ? tier.tier : null;
}
