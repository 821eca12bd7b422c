// MediaError codes, spelled out so this runs where the DOM's MediaError does not exist.
const MESSAGES: Record<number, string> = {
  1: 'Playback was stopped before the video loaded.',
  2: 'A network error stopped the video from loading.',
  3: 'The video file is damaged or uses an encoding this browser cannot decode.',
  4: 'The video could not be found or its format is not supported by this browser.',
};

/** A sentence for the Video Error panel from `video.error.code`. */
export function describeMediaError(code: number | null | undefined): string {
  return (code !== null && code !== undefined && MESSAGES[code]) || 'The video could not be played.';
}
