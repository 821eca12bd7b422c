/**
 * The print pipeline off the event loop: a resample to print size is a second or more of CPU,
 * which on the server's main thread would hold up every other request. Threads start on first
 * use, run one image at a time, and end after a few idle seconds, so an idle server holds none.
 * Callers bound how many run at once (the print routes, the fulfil job).
 */
import { Worker } from 'node:worker_threads';
import type { RgbaImage } from '../../../shared/pixels/image.ts';
import type { PrintOptions } from '../../../shared/pixels/print-pipeline.ts';
import type { PipelineReply, PipelineRequest } from './pipeline.thread.ts';

const IDLE_MS = 8_000;
const ENTRY = new URL('./pipeline.thread.mjs', import.meta.url);

interface Idle {
  worker: Worker;
  timer: ReturnType<typeof setTimeout>;
}

const idle: Idle[] = [];

function take(): Worker {
  const next = idle.pop();
  if (!next) return new Worker(ENTRY);
  clearTimeout(next.timer);
  return next.worker;
}

function putBack(worker: Worker): void {
  // An idle thread does not keep the process alive.
  worker.unref();
  const entry: Idle = {
    worker,
    timer: setTimeout(() => {
      idle.splice(idle.indexOf(entry), 1);
      void worker.terminate();
    }, IDLE_MS),
  };
  entry.timer.unref();
  idle.push(entry);
}

/** The image's pixels as a buffer the thread can take over: transferred when the view owns all of it, else copied. */
function transferable(image: RgbaImage): ArrayBuffer[] {
  const { buffer, byteOffset, byteLength } = image.data;
  return buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength ? [buffer] : [];
}

/** runPrintPipeline on a worker thread. The image's buffer may be handed over: do not use it afterwards. */
export function runPrintPipelineOffThread(image: RgbaImage, options: PrintOptions): Promise<RgbaImage> {
  const worker = take();
  worker.ref();
  return new Promise<RgbaImage>((resolve, reject) => {
    const done = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (reply: PipelineReply) => {
      done();
      putBack(worker);
      if ('error' in reply) reject(new Error(reply.error));
      else resolve(reply.image);
    };
    const onError = (err: Error) => {
      done();
      void worker.terminate();
      reject(err);
    };
    const onExit = (code: number) => {
      done();
      reject(new Error(`The print pipeline's thread stopped (exit code ${code}).`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    const request: PipelineRequest = { image, options };
    worker.postMessage(request, transferable(image));
  });
}
