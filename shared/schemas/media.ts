import { Type } from 'typebox';
import { STORAGE_BUCKETS } from '../constants.ts';
import { errorReplies } from './common.ts';
import { defineRoute } from './route.ts';

const Binary = Type.String({ format: 'binary', description: 'The stored bytes (or the requested range of them)' });

export const mediaRoute = defineRoute({
  method: 'GET',
  url: '/media/:bucket/*',
  access: 'public',
  schema: {
    summary: 'A stored video or image; honours Range requests (206) for seeking',
    tags: ['media'],
    params: Type.Object(
      {
        bucket: Type.Enum([...STORAGE_BUCKETS]),
        '*': Type.String({ maxLength: 200 }),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Binary,
      206: Binary,
      302: Type.Null({ description: 'With S3 object storage: the object at a signed URL on the bucket (Location), which honours Range requests' }),
      ...errorReplies(400, 404, 416),
    },
  },
});
