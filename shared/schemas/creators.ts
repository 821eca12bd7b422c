import { Type, type Static } from 'typebox';
import { SIDEBAR_CREATOR_COUNT } from '../constants.ts';
import { Uuid } from './common.ts';
import { defineRoute } from './route.ts';

export const CreatorSummary = Type.Object({
  id: Uuid,
  username: Type.String(),
  display_name: Type.String(),
  profile_image_url: Type.Union([Type.String(), Type.Null()]),
});
export type CreatorSummary = Static<typeof CreatorSummary>;

export const newestCreatorsRoute = defineRoute({
  method: 'GET',
  url: '/api/creators/newest',
  access: 'public',
  schema: {
    summary: `The ${SIDEBAR_CREATOR_COUNT} newest active creators, for the sidebar`,
    tags: ['creators'],
    response: {
      200: Type.Object({ success: Type.Literal(true), creators: Type.Array(CreatorSummary) }),
    },
  },
});
