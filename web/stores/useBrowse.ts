import { create } from 'zustand';
import type { VideoCategorySlug } from '../../shared/categories.ts';

export type FeedCategory = VideoCategorySlug | 'all';

interface BrowseState {
  /** The home feed's category filter. */
  category: FeedCategory;
  /** The navbar search box text, kept here so the logo can clear it. */
  searchText: string;
  setCategory: (category: FeedCategory) => void;
  setSearchText: (text: string) => void;
  /** What the logo does: back to every category and an empty search box. */
  reset: () => void;
}

export const useBrowse = create<BrowseState>()((set) => ({
  category: 'all',
  searchText: '',
  setCategory: (category) => set({ category }),
  setSearchText: (searchText) => set({ searchText }),
  reset: () => set({ category: 'all', searchText: '' }),
}));
