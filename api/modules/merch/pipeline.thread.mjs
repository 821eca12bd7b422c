// The print pipeline's worker thread. Threads do not inherit the server's TypeScript loader, so
// this plain module registers it before loading the thread's code.
import { register } from 'tsx/esm/api';

register();
await import('./pipeline.thread.ts');
