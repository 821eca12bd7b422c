/**
 * A route is defined once, here in shared/: the API registers it with Fastify (which
 * validates with its schemas and feeds them to the OpenAPI document) and the web client
 * derives its request and response types from the same object.
 */
import type { Static, TSchema } from 'typebox';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSchema {
  summary: string;
  tags: string[];
  params?: TSchema;
  querystring?: TSchema;
  body?: TSchema;
  response: Record<number, TSchema>;
}

/**
 * Who may call a route, enforced by the server for every route:
 * public (anyone), user (any signed-in user), creator (role creator, or an admin), admin (is_admin).
 */
export type Access = 'public' | 'user' | 'creator' | 'admin';

export interface RouteDef {
  method: HttpMethod;
  url: string;
  access: Access;
  schema: RouteSchema;
}

export function defineRoute<const R extends RouteDef>(route: R): R {
  return route;
}

type Field<S, K extends string> = S extends Record<K, infer T extends TSchema> ? Static<T> : undefined;

export type ParamsOf<R extends RouteDef> = Field<R['schema'], 'params'>;
export type QueryOf<R extends RouteDef> = Field<R['schema'], 'querystring'>;
export type BodyOf<R extends RouteDef> = Field<R['schema'], 'body'>;
export type ReplyOf<R extends RouteDef, Status extends number = 200> = R['schema']['response'] extends Record<
  Status,
  infer T extends TSchema
>
  ? Static<T>
  : never;
