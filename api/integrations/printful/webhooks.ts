/**
 * Who may report to the app's Printful webhook. Printful signs nothing, so its webhook URL
 * carries a secret token (PRINTFUL_WEBHOOK_TOKEN); the embedded print shop is given a token of
 * its own the same way. Its reports are processed under the ids it gives them.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { podEventId } from './embedded-pod.ts';
import type { FulfilmentEvent } from './fulfilment-provider.ts';

export interface FulfilmentWebhooks {
  /**
   * Null when the token is none of the print shops'; else the id to process the report under
   * (undefined: derived from the report's content).
   */
  accept(token: string | undefined, event: FulfilmentEvent): { eventId: string | undefined } | null;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function sameSecret(given: string | undefined, expected: string | null | undefined): boolean {
  if (!given || !expected) return false;
  return timingSafeEqual(digest(given), digest(expected));
}

export function fulfilmentWebhooks(tokens: { printful: string | null; embedded: string }): FulfilmentWebhooks {
  return {
    accept(token, event) {
      if (sameSecret(token, tokens.printful)) return { eventId: undefined };
      if (sameSecret(token, tokens.embedded)) return { eventId: podEventId(event) };
      return null;
    },
  };
}
