/**
 * Security headers. The CSP lets the app run its own scripts, WebAssembly and workers and
 * load media and images from its own origin (plus blob:/data: for frames made in the page);
 * nothing from any other origin but the object store's, where stored media is read by signed
 * URLs when the store is S3. Compressed request bodies are refused (request-encoding.ts), and
 * so is text holding a NUL character (text-input.ts) and a number that is not finite
 * (number-input.ts).
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { refuseNonFiniteNumbers } from './number-input.ts';
import { refuseEncodedBodies } from './request-encoding.ts';
import { refuseNulText } from './text-input.ts';

export interface SecurityOptions {
  https: boolean;
  /** The origin stored media is read from besides this one (S3_PUBLIC_URL's), or null. */
  mediaOrigin: string | null;
}

async function security(app: FastifyInstance, opts: SecurityOptions) {
  const media = opts.mediaOrigin ? [opts.mediaOrigin] : [];
  refuseEncodedBodies(app);
  refuseNulText(app);
  refuseNonFiniteNumbers(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        workerSrc: ["'self'", 'blob:'],
        childSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", 'blob:', 'data:', ...media],
        imgSrc: ["'self'", 'data:', 'blob:', ...media],
        mediaSrc: ["'self'", 'blob:', ...media],
        styleSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(opts.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: opts.https ? { maxAge: 15552000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}

export default fp(security, { name: 'security' });
