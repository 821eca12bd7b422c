import { useEffect, useState } from 'react';
import { recordViewRoute } from '../../../shared/schemas/channels.ts';
import { request } from '../../lib/api.ts';

/**
 * Counts a view of this video once per mount (the server counts once per viewer session) and
 * returns the count it answered, or null until then or if it failed (a view that could not
 * be counted is not worth an error on screen).
 */
export function useRecordView(videoId: string): number | null {
  const [count, setCount] = useState<{ videoId: string; views: number } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    request(recordViewRoute, { params: { id: videoId }, signal: controller.signal }).then(
      (reply) => setCount({ videoId, views: reply.view_count }),
      () => undefined,
    );
    return () => controller.abort();
  }, [videoId]);
  return count?.videoId === videoId ? count.views : null;
}
