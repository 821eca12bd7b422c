/** The creator studio: uploading and deleting videos, editing the profile, and the spec's user calls. */
import { Type, type Static } from 'typebox';
import { errorReplies, Timestamp, Uuid } from './common.ts';
import { defineRoute } from './route.ts';
import { VideoCard } from './videos.ts';

const MB = 1024 * 1024;

/** Spec section 9 and the tiers: what a creator may upload. */
export const UPLOAD_LIMITS = {
  free: { videoBytes: 100 * MB, videoSeconds: 10 * 60 },
  pro: { videoBytes: 2 * 1024 * MB, videoSeconds: 60 * 60 },
  thumbnailBytes: 10 * MB,
  profileImageBytes: 5 * MB,
} as const;

export const UPLOAD_MESSAGES = {
  videoTooLarge: 'Video file size must be less than 100MB',
  notAVideo: 'Please select a valid video file',
  imageTooLarge: 'Image file size must be less than 10MB',
  notAnImage: 'Please select a valid image file',
  noFile: 'No file selected',
  titleRequired: 'Please enter a video title',
  descriptionRequired: 'Please enter a video description',
  videoRequired: 'Please select a video file',
  thumbnailRequired: 'Please select a thumbnail image',
  signInToUpload: 'Please log in to upload videos',
  authError: 'Authentication error. Please log in again.',
  ensureUserFailed: 'Failed to ensure user exists in database',
  videoFailed: (reason: string) => `Video upload failed: ${reason}`,
  thumbnailFailed: 'Thumbnail upload failed',
  databaseError: (reason: string) => `Database error: ${reason}`,
  uploadFailed: 'Upload failed',
  profileNotImage: 'Please select a valid image file.',
  profileTooLarge: 'File size must be less than 5MB.',
  profileUploadFailed: 'Failed to upload image. Please try again.',
  deleteFailed: 'Failed to delete video',
} as const;

/** Upload progress stages of the spec's flow. */
export const UPLOAD_STAGES = { ensureUser: 10, video: 50, thumbnail: 80, metadata: 100 } as const;

export const uploadVideoRoute = defineRoute({
  method: 'POST',
  url: '/api/videos',
  access: 'creator',
  schema: {
    summary:
      'Uploads a video (multipart: title, description, category, then the files video and thumbnail); checked by content, limited by tier',
    tags: ['studio'],
    response: {
      201: Type.Object({ success: Type.Literal(true), video: VideoCard }),
      ...errorReplies(400, 401, 403, 413, 415, 422, 500),
    },
  },
});

/**
 * Resumable uploads (the tus 1.0 protocol): files above `thresholdBytes` are sent to `endpoint`
 * (POST creates an upload, HEAD reads its offset, PATCH appends at that offset, DELETE drops it),
 * then `finishResumableUploadRoute` turns the completed upload into a video. An upload not
 * touched for `expiryHours` is removed with its bytes.
 */
export const RESUMABLE_UPLOAD = {
  thresholdBytes: 100 * MB,
  endpoint: '/api/uploads',
  expiryHours: 24,
  /** Uploads a creator may hold at once (unfinished, or complete and not yet turned into a video). */
  maxOpenPerCreator: 5,
} as const;

/** The resumable upload's own answers (the video's checks answer as a direct upload's do). */
export const RESUMABLE_MESSAGES = {
  /** Someone else's upload answers exactly as a missing one. */
  notFound: 'Upload not found.',
  incomplete: 'Video upload failed: the upload is not complete',
  tooMany: `You have ${RESUMABLE_UPLOAD.maxOpenPerCreator} unfinished uploads. Finish or cancel one of them before starting another.`,
  busy: 'This upload is being saved as a video. Please wait a moment.',
  lengthRequired: 'Upload-Length must give the size of the file in bytes; uploads of unknown length are not accepted.',
  offsetConflict: 'Upload-Offset does not match the bytes stored: ask for the offset (HEAD) and resume from there.',
} as const;

/** 100 MiB -> "100MB", 2 GiB -> "2GB": how the messages write a limit. */
export function sizeLabel(bytes: number): string {
  return bytes >= 1024 * MB && bytes % (1024 * MB) === 0 ? `${bytes / (1024 * MB)}GB` : `${Math.round(bytes / MB)}MB`;
}

/**
 * The refusal of a video over its creator's tier limit, by size or by length: the limit named,
 * and for a Free creator how to raise it (Pro's limits). The one wording of every such refusal.
 */
export function videoLimitMessage(tier: 'free' | 'pro', limit: 'size' | 'duration'): string {
  const rule =
    limit === 'size'
      ? `Video file size must be less than ${sizeLabel(UPLOAD_LIMITS[tier].videoBytes)}`
      : `Video must be at most ${UPLOAD_LIMITS[tier].videoSeconds / 60} minutes long`;
  const upgrade =
    tier === 'free'
      ? `. Upgrade to Pro on /subscription-tiers for videos up to ${sizeLabel(UPLOAD_LIMITS.pro.videoBytes)} and ${UPLOAD_LIMITS.pro.videoSeconds / 60} minutes.`
      : '';
  return UPLOAD_MESSAGES.videoFailed(`${rule}${upgrade}`);
}

/** The tus 1.0 requests at `endpoint` (their data is in headers, not JSON: tus.io/protocols/resumable-upload); errors answer JSON like every route. */
const UploadId = Type.String({ maxLength: 100, description: 'The upload id: the last segment of the Location the creation answered' });
/** A tus reply: no body; what it says is in its headers (Tus-Resumable 1.0.0 and those named). */
const tusReply = (headers: string) => Type.Null({ description: `No body; headers: Tus-Resumable, ${headers}` });

export const createResumableUploadRoute = defineRoute({
  method: 'POST',
  url: '/api/uploads',
  access: 'creator',
  schema: {
    summary:
      'Creates a resumable upload (tus 1.0 creation): Tus-Resumable 1.0.0, Upload-Length (required, at most the tier limit), optional Upload-Metadata; answers 201 with Location /api/uploads/{id}. At most maxOpenPerCreator open uploads per creator',
    tags: ['studio'],
    response: {
      201: tusReply('Location (the upload URL)'),
      ...errorReplies(400, 401, 403, 412, 413, 415, 429),
    },
  },
});

export const resumableUploadOffsetRoute = defineRoute({
  method: 'HEAD',
  url: '/api/uploads/:id',
  access: 'creator',
  schema: {
    summary: "The offset of one of the signed-in creator's uploads (tus 1.0 HEAD): Upload-Offset and Upload-Length; someone else's upload answers 404 like a missing one",
    tags: ['studio'],
    params: Type.Object({ id: UploadId }, { additionalProperties: false }),
    response: {
      200: tusReply('Upload-Offset (bytes stored), Upload-Length (the declared size)'),
      ...errorReplies(401, 403, 404, 409),
    },
  },
});

export const appendResumableUploadRoute = defineRoute({
  method: 'PATCH',
  url: '/api/uploads/:id',
  access: 'creator',
  schema: {
    summary:
      'Appends bytes at Upload-Offset (tus 1.0 PATCH, Content-Type application/offset+octet-stream); a stale offset answers 409 and stores nothing; the first bytes must be an MP4 or WebM (415, and the upload is removed)',
    tags: ['studio'],
    params: Type.Object({ id: UploadId }, { additionalProperties: false }),
    response: {
      204: tusReply('Upload-Offset (bytes stored after this request)'),
      ...errorReplies(400, 401, 403, 404, 409, 412, 413, 415),
    },
  },
});

export const deleteResumableUploadRoute = defineRoute({
  method: 'DELETE',
  url: '/api/uploads/:id',
  access: 'creator',
  schema: {
    summary: "Removes one of the signed-in creator's uploads with its bytes (tus 1.0 termination)",
    tags: ['studio'],
    params: Type.Object({ id: UploadId }, { additionalProperties: false }),
    response: { 204: tusReply('nothing else'), ...errorReplies(401, 403, 404, 409, 412) },
  },
});

export const finishResumableUploadRoute = defineRoute({
  method: 'POST',
  url: '/api/videos/resumable',
  access: 'creator',
  schema: {
    summary:
      'Turns a completed resumable upload into a video (multipart: title, description, category, upload_id, then the file thumbnail); the same checks and tier limits as a direct upload',
    tags: ['studio'],
    response: {
      201: Type.Object({ success: Type.Literal(true), video: VideoCard }),
      ...errorReplies(400, 401, 403, 404, 409, 413, 415, 422, 500),
    },
  },
});

export const StudioVideo = Type.Intersect([
  VideoCard,
  Type.Object({ verification_status: Type.String(), size_bytes: Type.Integer(), width: Type.Union([Type.Integer(), Type.Null()]), height: Type.Union([Type.Integer(), Type.Null()]) }),
]);
export type StudioVideo = Static<typeof StudioVideo>;

export const myVideosRoute = defineRoute({
  method: 'GET',
  url: '/api/studio/videos',
  access: 'creator',
  schema: {
    summary: "The signed-in creator's own videos, whatever their status",
    tags: ['studio'],
    response: { 200: Type.Object({ success: Type.Literal(true), videos: Type.Array(StudioVideo) }), ...errorReplies(401, 403) },
  },
});

export const deleteVideoRoute = defineRoute({
  method: 'DELETE',
  url: '/api/videos/:id',
  access: 'creator',
  schema: {
    summary: 'Deletes a video with its files (its creator, or an admin)',
    tags: ['studio'],
    params: Type.Object({ id: Uuid }, { additionalProperties: false }),
    response: { 200: Type.Object({ success: Type.Literal(true) }), ...errorReplies(401, 403, 404) },
  },
});

export const OwnProfile = Type.Object({
  id: Uuid,
  username: Type.String(),
  display_name: Type.String(),
  bio: Type.String(),
  profile_image_url: Type.Union([Type.String(), Type.Null()]),
  cover_image_url: Type.Union([Type.String(), Type.Null()]),
  tier: Type.Union([Type.Literal('free'), Type.Literal('pro')]),
  created_at: Timestamp,
});
export type OwnProfile = Static<typeof OwnProfile>;

export const myProfileRoute = defineRoute({
  method: 'GET',
  url: '/api/studio/profile',
  access: 'creator',
  schema: {
    summary: "The signed-in creator's editable profile and upload tier",
    tags: ['studio'],
    response: { 200: Type.Object({ success: Type.Literal(true), profile: OwnProfile }), ...errorReplies(401, 403) },
  },
});

export const updateProfileRoute = defineRoute({
  method: 'PATCH',
  url: '/api/studio/profile',
  access: 'creator',
  schema: {
    summary: 'Edits the display name and bio',
    tags: ['studio'],
    body: Type.Object(
      {
        display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        bio: Type.Optional(Type.String({ maxLength: 2000 })),
      },
      { additionalProperties: false },
    ),
    response: { 200: Type.Object({ success: Type.Literal(true), profile: OwnProfile }), ...errorReplies(400, 401, 403) },
  },
});

export const profileImageRoute = defineRoute({
  method: 'POST',
  url: '/api/studio/profile/:kind',
  access: 'creator',
  schema: {
    summary: 'Uploads the avatar or the cover image (multipart field "image", at most 5 MB); re-encoded, metadata removed',
    tags: ['studio'],
    params: Type.Object({ kind: Type.Enum(['avatar', 'cover']) }, { additionalProperties: false }),
    response: { 200: Type.Object({ success: Type.Literal(true), profile: OwnProfile }), ...errorReplies(400, 401, 403, 413, 415, 422) },
  },
});

export const ensureUserRoute = defineRoute({
  method: 'POST',
  url: '/api/users/ensure-exists',
  access: 'user',
  schema: {
    summary: 'Confirms the signed-in user exists (the body is accepted for compatibility; only the session counts)',
    tags: ['studio'],
    body: Type.Object(
      {
        user_id: Type.Optional(Type.String({ maxLength: 100 })),
        email: Type.Optional(Type.String({ maxLength: 254 })),
        display_name: Type.Optional(Type.String({ maxLength: 100 })),
      },
      { additionalProperties: false },
    ),
    response: { 200: Type.Object({ success: Type.Literal(true), user: Type.Object({ id: Uuid, email: Type.String() }) }), ...errorReplies(401) },
  },
});

export const updateChannelRoute = defineRoute({
  method: 'POST',
  url: '/api/users/update-channel',
  access: 'creator',
  schema: {
    summary: "Changes the signed-in creator's channel slug (lowercase letters and digits)",
    tags: ['studio'],
    body: Type.Object(
      {
        user_id: Type.Optional(Type.String({ maxLength: 100 })),
        channel_slug: Type.String({ minLength: 1, maxLength: 40 }),
        channel_url: Type.Optional(Type.String({ maxLength: 500 })),
      },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({ success: Type.Literal(true), channel_slug: Type.String(), channel_url: Type.String() }),
      ...errorReplies(400, 401, 403, 409),
    },
  },
});

export const videoInfoRoute = defineRoute({
  method: 'GET',
  url: '/api/video-info',
  access: 'public',
  schema: {
    summary: 'Facts about a video this server stores, by its URL or id: size, duration, frame size, frame rate',
    tags: ['videos'],
    querystring: Type.Object(
      { video_url: Type.Optional(Type.String({ maxLength: 500 })), id: Type.Optional(Uuid) },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({
        success: Type.Literal(true),
        video: Type.Object({
          id: Uuid,
          video_url: Type.String(),
          content_type: Type.String(),
          size_bytes: Type.Integer(),
          duration_s: Type.Union([Type.Number(), Type.Null()]),
          width: Type.Union([Type.Integer(), Type.Null()]),
          height: Type.Union([Type.Integer(), Type.Null()]),
        }),
      }),
      ...errorReplies(400, 404),
    },
  },
});
