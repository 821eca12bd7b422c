/** Runs the print pipeline for pipeline-threads.ts, one image per message, its pixels transferred both ways. */
import { parentPort } from 'node:worker_threads';
import type { RgbaImage } from '../../../shared/pixels/image.ts';
import { runPrintPipeline, type PrintOptions } from '../../../shared/pixels/print-pipeline.ts';

export interface PipelineRequest {
  image: RgbaImage;
  options: PrintOptions;
}

export type PipelineReply = { image: RgbaImage } | { error: string };

const port = parentPort!;
port.on('message', ({ image, options }: PipelineRequest) => {
  let reply: PipelineReply;
  try {
    reply = { image: runPrintPipeline(image, options) };
  } catch (err) {
    reply = { error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply, 'image' in reply ? [reply.image.data.buffer as ArrayBuffer] : []);
});
