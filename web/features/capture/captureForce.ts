import type { CaptureRequest } from './types.ts';

const FORCEABLE: readonly string[] = ['canvas', 'wasm', 'server'] satisfies NonNullable<CaptureRequest['force']>[];

/** `?capture=wasm|server|canvas` on the video page starts the capture chain at that step; any other value is ignored. */
export function captureForce(search: string): CaptureRequest['force'] {
  const value = new URLSearchParams(search).get('capture');
  return value !== null && FORCEABLE.includes(value) ? (value as CaptureRequest['force']) : undefined;
}
