import { Type } from 'typebox';
import { defineRoute } from './route.ts';

const Check = Type.Object({
  ok: Type.Boolean(),
  latency_ms: Type.Number(),
  detail: Type.String(),
});

const HealthReply = Type.Object({
  success: Type.Boolean(),
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  uptime_s: Type.Number(),
  database: Type.Intersect([Check, Type.Object({ kind: Type.Union([Type.Literal('pglite'), Type.Literal('postgres')]) })]),
  storage: Type.Intersect([Check, Type.Object({ kind: Type.String() })]),
});

export const healthRoute = defineRoute({
  method: 'GET',
  url: '/api/health',
  access: 'public',
  schema: {
    summary: 'Reports whether the database and object storage answer',
    tags: ['system'],
    response: { 200: HealthReply, 503: HealthReply },
  },
});
