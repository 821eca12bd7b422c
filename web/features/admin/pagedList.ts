/**
 * The state of a keyset-paged admin list: the rows so far, the next cursor, the first page's
 * status and Load more's. State is kept under the key it was loaded for, so rows of an earlier
 * filter never show under a new one.
 */
export interface PagedState<T> {
  key: string;
  items: T[];
  next: string | null;
  status: 'loading' | 'ready' | 'error';
  error: unknown;
  more: 'idle' | 'loading' | 'error';
  moreError: unknown;
}

export type PagedAction<T> =
  | { type: 'page'; key: string; items: T[]; next: string | null; append: boolean }
  | { type: 'failed'; key: string; error: unknown }
  | { type: 'more'; key: string }
  | { type: 'more-failed'; key: string; error: unknown }
  | { type: 'replace'; item: T }
  | { type: 'remove'; id: string | number };

export function initialPaged<T>(key = ''): PagedState<T> {
  return { key, items: [], next: null, status: 'loading', error: null, more: 'idle', moreError: null };
}

export function pagedReducer<T extends { id: string | number }>(state: PagedState<T>, action: PagedAction<T>): PagedState<T> {
  switch (action.type) {
    case 'page': {
      if (!action.append) return { ...initialPaged<T>(action.key), items: action.items, next: action.next, status: 'ready' };
      if (action.key !== state.key) return state;
      // A row can move up while paging (a new upload); it is shown once.
      const seen = new Set(state.items.map((item) => item.id));
      const items = [...state.items, ...action.items.filter((item) => !seen.has(item.id))];
      return { ...state, items, next: action.next, more: 'idle', moreError: null };
    }
    case 'failed':
      return { ...initialPaged<T>(action.key), status: 'error', error: action.error };
    case 'more':
      return action.key === state.key && state.next ? { ...state, more: 'loading', moreError: null } : state;
    case 'more-failed':
      return action.key === state.key ? { ...state, more: 'error', moreError: action.error } : state;
    case 'replace':
      return { ...state, items: state.items.map((item) => (item.id === action.item.id ? action.item : item)) };
    case 'remove':
      return { ...state, items: state.items.filter((item) => item.id !== action.id) };
  }
}

/** The state as the list for `key` sees it: loading until that key's first page is in. */
export function pagedView<T>(state: PagedState<T>, key: string): PagedState<T> {
  return state.key === key ? state : initialPaged<T>(key);
}
