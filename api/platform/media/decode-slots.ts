/**
 * A decoded image holds its whole frame in memory (4 bytes a pixel and more while it is resized),
 * so a burst of uploads decoded all at once would grow the process by gigabytes and starve the
 * event loop. Every image decode takes one of a few slots and the rest wait their turn: at most
 * one decode per core runs, and the memory in use stays bounded whatever the number of requests.
 */
import os from 'node:os';
import { Slots } from '../concurrency/slots.ts';

/** The slots every image decode of this process shares. */
export const imageDecodes = new Slots(Math.max(1, os.availableParallelism()));
