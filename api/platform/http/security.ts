/**
 * Security headers. The CSP lets the app run its own scripts, WebAssembly and workers and
 * load media and images from its own origin (plus blob:/data: for frames made in the page);
 * nothing from any other origin. Compressed request bodies are refused (request-encoding.ts), and
 * so is text holding a NUL character (text-input.ts).
 */
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { refuseEncodedBodies } from './request-encoding.ts';
import { refuseNulText } from './text-input.ts';

export interface SecurityOptions {
  https: boolean;
}

async function security(app: FastifyInstance, opts: SecurityOptions) {
  refuseEncodedBodies(app);
  refuseNulText(app);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        workerSrc: ["'self'", 'blob:'],
        childSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", 'blob:', 'data:'],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
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
