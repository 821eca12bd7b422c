/** Media-time arithmetic shared by the steps that decode a frame themselves (ffmpeg.wasm, the server). */

/**
 * The media time to ask a decoder for, safely inside the frame on screen. `exact` times are a
 * presented frame's own presentation time (requestVideoFrameCallback's mediaTime): the frame
 * starts there, so a millisecond later is inside it whatever the rounding of either side, and
 * still inside it for any frame rate up to 1000 fps. Other times (the player's currentTime)
 * already lie inside the frame on screen; they only move past a frame start they sit on.
 */
export function timeInsideFrame(time: number, exact: boolean): number {
  return Math.max(0, time) + (exact ? 0.001 : 0.00001);
}

