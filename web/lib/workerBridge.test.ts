import * as Comlink from 'comlink';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerBridge } from './workerBridge.ts';

interface FakeApi {
  echo(value: number): number;
  slow(ms: number): Promise<string>;
  load(): Promise<void>;
}

/** A stand-in for a Worker: comlink over a MessageChannel, with `error` events and `terminate`. */
class FakeWorker extends EventTarget {
  terminated = false;
  loads = 0;
  readonly channel = new MessageChannel();

  constructor(failLoad = false) {
    super();
    const api: FakeApi = {
      echo: (value) => value,
      slow: (ms) => new Promise((resolve) => setTimeout(() => resolve('done'), ms)),
      load: async () => {
        this.loads++;
        if (failLoad) throw new Error('no core');
      },
    };
    Comlink.expose(api, this.channel.port2 as unknown as Comlink.Endpoint);
  }

  postMessage(message: unknown, transfer?: Transferable[]) {
    this.channel.port1.postMessage(message, (transfer ?? []) as never);
  }

  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: AddEventListenerOptions | boolean) {
    if (type === 'message') this.channel.port1.addEventListener('message', listener as never, options);
    else super.addEventListener(type, listener, options);
  }

  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null, options?: EventListenerOptions | boolean) {
    if (type === 'message') this.channel.port1.removeEventListener('message', listener as never, options);
    else super.removeEventListener(type, listener, options);
  }

  start() {
    this.channel.port1.start();
  }

  terminate() {
    this.terminated = true;
    this.channel.port1.close();
    this.channel.port2.close();
  }
}

const started: FakeWorker[] = [];
function bridgeOf(options: { idleMs?: number; failLoad?: boolean; restartAfterError?: boolean; onWorkerError?: () => void } = {}) {
  return createWorkerBridge<FakeApi>({
    start: () => {
      const worker = new FakeWorker(options.failLoad);
      started.push(worker);
      return worker as unknown as Worker;
    },
    idleMs: options.idleMs ?? 1_000,
    init: (api) => api.load(),
    ...(options.restartAfterError ? { restartAfterError: true } : {}),
    ...(options.onWorkerError ? { onWorkerError: options.onWorkerError } : {}),
  });
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterEach(() => {
  for (const worker of started.splice(0)) worker.terminate();
});

describe('createWorkerBridge', () => {
  it('starts the worker on first use and keeps it for later calls', async () => {
    const bridge = bridgeOf();
    expect(started).toHaveLength(0);
    const contexts: boolean[] = [];
    expect(await bridge.run(async (api, { ready, cold }) => (contexts.push(cold), await ready, api.echo(1)))).toBe(1);
    expect(await bridge.run(async (api, { cold }) => (contexts.push(cold), api.echo(2)))).toBe(2);
    expect(started).toHaveLength(1);
    expect(started[0]!.loads).toBe(1);
    expect(contexts).toEqual([true, false]);
    bridge.terminate();
  });

  it('ends the worker after the idle time, and starts a new one when needed again', async () => {
    const bridge = bridgeOf({ idleMs: 20 });
    await bridge.run((api) => api.echo(1));
    expect(started[0]!.terminated).toBe(false);
    await sleep(60);
    expect(started[0]!.terminated).toBe(true);
    await bridge.run((api) => api.echo(2));
    expect(started).toHaveLength(2);
    bridge.terminate();
  });

  it('does not end a worker that is busy', async () => {
    const bridge = bridgeOf({ idleMs: 10 });
    const slow = bridge.run((api) => api.slow(60));
    await sleep(30);
    await bridge.run((api) => api.echo(1));
    await sleep(20);
    expect(started[0]!.terminated).toBe(false);
    expect(await slow).toBe('done');
    bridge.terminate();
  });

  it('ends the worker at once when the signal aborts, rejecting with its reason', async () => {
    const bridge = bridgeOf();
    const controller = new AbortController();
    const call = bridge.run((api) => api.slow(1_000), controller.signal);
    await sleep(10);
    controller.abort(new Error('left the page'));
    await expect(call).rejects.toThrow('left the page');
    expect(started[0]!.terminated).toBe(true);
    await expect(bridge.run((api) => api.echo(1), controller.signal)).rejects.toThrow('left the page');
    expect(started).toHaveLength(1);
  });

  it('fails the calls under way when the worker fails, and starts afresh next time', async () => {
    let failures = 0;
    const bridge = bridgeOf({ onWorkerError: () => failures++ });
    const call = bridge.run((api) => api.slow(1_000));
    await sleep(10);
    started[0]!.dispatchEvent(new Event('error'));
    await expect(call).rejects.toThrow('The worker failed');
    expect(failures).toBe(1);
    expect(started[0]!.terminated).toBe(true);
    expect(await bridge.run((api) => api.echo(3))).toBe(3);
    expect(started).toHaveLength(2);
    bridge.terminate();
  });

  it('ends the worker when its start-up work fails', async () => {
    const bridge = bridgeOf({ failLoad: true, restartAfterError: true });
    await expect(bridge.run(async (api, { ready }) => (await ready, api.echo(1)))).rejects.toThrow('no core');
    expect(started[0]!.terminated).toBe(true);
  });
});
