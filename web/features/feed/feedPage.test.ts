import { describe, expect, it } from 'vitest';
import { FEED_PAGE_SIZE } from '../../../shared/constants.ts';
import { appendPage, feedQuery, type FeedVideo } from './feedPage.ts';

const video = (id: string): FeedVideo => ({
  id,
  title: `Video ${id}`,
  thumbnail_url: null,
  channel_title: null,
  channel_slug: null,
  category: null,
  category_id: 0,
  view_count: 0,
  duration_s: null,
  created_at: '2025-01-01T00:00:00.000Z',
});

describe('feedQuery', () => {
  it('asks for every category without a category parameter', () => {
    expect(feedQuery('all')).toEqual({ limit: FEED_PAGE_SIZE });
  });

  it('filters by the chosen slug and continues from a cursor', () => {
    expect(feedQuery('music', 'abc_123')).toEqual({ category: 'music', limit: FEED_PAGE_SIZE, before: 'abc_123' });
    expect(feedQuery('music', null)).toEqual({ category: 'music', limit: FEED_PAGE_SIZE });
  });
});

describe('appendPage', () => {
  it('keeps order and drops repeats', () => {
    const merged = appendPage([video('a'), video('b')], [video('b'), video('c')]);
    expect(merged.map((v) => v.id)).toEqual(['a', 'b', 'c']);
  });
});
