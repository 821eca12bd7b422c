import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { imageDecodes } from '../media/decode-slots.ts';
import { Slots, SlotWaitTimeout } from './slots.ts';

/** A task that stays running until told to finish, recording how many ran beside it. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('Slots', () => {
  it('runs at most its size at once and queues the rest, in order', async () => {
    const slots = new Slots(3);
    const gates = Array.from({ length: 10 }, gate);
    const started: number[] = [];
    let running = 0;
    let most = 0;
    const done = gates.map((g, i) =>
      slots.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await g.opened;
        running--;
        return i;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    expect(slots.running).toBe(3);
    expect(slots.queued).toBe(7);

    // Finishing one lets exactly one more start: the oldest in the queue.
    gates[1]!.open();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2, 3]);

    for (const g of gates) g.open();
    expect(await Promise.all(done)).toEqual(gates.map((_, i) => i));
    expect(most).toBe(3);
    expect(started).toEqual(gates.map((_, i) => i));
    expect(slots.running).toBe(0);
    expect(slots.queued).toBe(0);
  });

  it('frees the slot of a task that throws', async () => {
    const slots = new Slots(1);
    await expect(slots.run(async () => Promise.reject(new Error('corrupt image')))).rejects.toThrow('corrupt image');
    expect(slots.running).toBe(0);
    await expect(slots.run(async () => 'next')).resolves.toBe('next');
  });

  it('has one slot per core for the images of this process', () => {
    expect(imageDecodes.size).toBe(os.availableParallelism());
    expect(() => new Slots(0)).toThrow(RangeError);
  });

  it('gives up on a wait that runs past its limit, and the slot freed later goes to the next in line', async () => {
    const slots = new Slots(1);
    const first = await slots.acquire();
    const impatient = slots.acquire(30);
    const patient = slots.acquire();
    await expect(impatient).rejects.toBeInstanceOf(SlotWaitTimeout);
    expect(slots.queued).toBe(1);
    first();
    const second = await patient;
    expect(slots.running).toBe(1);
    second();
    second();
    // Given back twice, counted once.
    expect(slots.running).toBe(0);
    const a = await slots.acquire();
    expect(slots.running).toBe(1);
    a();
  });
});
