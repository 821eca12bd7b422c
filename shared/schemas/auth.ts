/**
 * Session routes the navbar calls. The server registers them with the accounts work; until
 * then they answer 404 and the web app treats the visitor as signed out. They are not in
 * API_ROUTES (index.ts) until the server implements them.
 */
import { Type } from 'typebox';
import { errorReplies, Uuid } from './common.ts';
import { defineRoute } from './route.ts';

export const SessionUser = Type.Object({
  id: Uuid,
  display_name: Type.String(),
  username: Type.String(),
  profile_image_url: Type.Union([Type.String(), Type.Null()]),
  is_admin: Type.Boolean(),
});

export const meRoute = defineRoute({
  method: 'GET',
  url: '/api/auth/me',
  schema: {
    summary: 'The signed-in user of this session',
    tags: ['auth'],
    response: { 200: Type.Object({ user: SessionUser }), ...errorReplies(401) },
  },
});

export const logoutRoute = defineRoute({
  method: 'POST',
  url: '/api/auth/logout',
  schema: {
    summary: 'Ends this session',
    tags: ['auth'],
    response: { 200: Type.Object({ success: Type.Literal(true) }) },
  },
});

export const deleteAccountRoute = defineRoute({
  method: 'DELETE',
  url: '/api/users/:id/delete-account',
  schema: {
    summary: 'Deletes the signed-in user account',
    tags: ['auth'],
    params: Type.Object({ id: Uuid }),
    response: { 200: Type.Object({ success: Type.Literal(true) }), ...errorReplies(401, 403, 404) },
  },
});
