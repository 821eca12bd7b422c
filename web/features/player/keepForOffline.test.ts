import { describe, expect, it } from 'vitest';
import { offlineMedia } from './keepForOffline.ts';

describe('offlineMedia', () => {
  it("lists the video's details, its file, thumbnail and poster, skipping what it lacks", () => {
    const id = '6f1c2a3b-1111-4222-8333-444455556666';
    expect(offlineMedia({ id, video_url: '/media/videos/a.mp4', thumbnail_url: '/media/thumbnails/a.jpg', poster_url: null })).toEqual([
      `/api/videos/${id}`,
      '/media/videos/a.mp4',
      '/media/thumbnails/a.jpg',
    ]);
    expect(offlineMedia({ id, video_url: null, thumbnail_url: '', poster_url: null })).toEqual([`/api/videos/${id}`]);
  });
});
