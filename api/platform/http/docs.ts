/** The OpenAPI document, generated from the route schemas in shared/, and its docs page. */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

async function docs(app: FastifyInstance) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'FrameMerch API',
        description: 'Videos, frame capture, merch shop, checkout and creator payouts.',
        version: '1.0.0',
      },
      tags: [
        { name: 'system', description: 'Health and documentation' },
        { name: 'videos', description: 'Feed and watching' },
        { name: 'creators', description: 'Channels and profiles' },
        { name: 'shop', description: 'Catalogue, products, cart and checkout' },
        { name: 'media', description: 'Stored videos and images' },
      ],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    uiConfig: { docExpansion: 'list', deepLinking: false },
  });
}

export default fp(docs, { name: 'docs' });
