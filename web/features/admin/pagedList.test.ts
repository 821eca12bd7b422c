import { describe, expect, it } from 'vitest';
import { initialPaged, pagedReducer, pagedView, type PagedState } from './pagedList.ts';

type Row = { id: string; name: string };
const row = (id: string, name = id): Row => ({ id, name });

const first = (key: string, items: Row[], next: string | null) =>
  pagedReducer(initialPaged<Row>(), { type: 'page', key, items, next, append: false });

describe('pagedReducer', () => {
  it('the first page replaces whatever was there', () => {
    const s = first('k1', [row('a'), row('b')], 'c1');
    expect(s).toMatchObject({ key: 'k1', status: 'ready', next: 'c1', more: 'idle' });
    expect(s.items.map((r) => r.id)).toEqual(['a', 'b']);
    const t = pagedReducer(s, { type: 'page', key: 'k2', items: [row('z')], next: null, append: false });
    expect(t.items.map((r) => r.id)).toEqual(['z']);
    expect(t.key).toBe('k2');
  });

  it('Load more appends the next page (rows already shown once), then ends at a null cursor', () => {
    let s = first('k', [row('a'), row('b')], 'c1');
    s = pagedReducer(s, { type: 'more', key: 'k' });
    expect(s.more).toBe('loading');
    s = pagedReducer(s, { type: 'page', key: 'k', items: [row('b'), row('c')], next: null, append: true });
    expect(s.items.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(s).toMatchObject({ next: null, more: 'idle' });
    expect(pagedReducer(s, { type: 'more', key: 'k' })).toBe(s);
  });

  it('a page for an earlier filter is ignored', () => {
    const s = first('new', [row('a')], 'c1');
    expect(pagedReducer(s, { type: 'page', key: 'old', items: [row('x')], next: null, append: true })).toBe(s);
    expect(pagedReducer(s, { type: 'more-failed', key: 'old', error: new Error() })).toBe(s);
  });

  it('a failed first page is an error; a failed Load more keeps the rows', () => {
    const failed = pagedReducer(first('k', [row('a')], null), { type: 'failed', key: 'k2', error: 'boom' });
    expect(failed).toMatchObject({ key: 'k2', status: 'error', error: 'boom', items: [] });
    let s = first('k', [row('a')], 'c1');
    s = pagedReducer(s, { type: 'more', key: 'k' });
    s = pagedReducer(s, { type: 'more-failed', key: 'k', error: 'nope' });
    expect(s).toMatchObject({ more: 'error', moreError: 'nope', next: 'c1' });
    expect(s.items).toHaveLength(1);
  });

  it('after an action a row is replaced in place or removed, the rest untouched', () => {
    let s = first('k', [row('a'), row('b'), row('c')], 'c1');
    s = pagedReducer(s, { type: 'replace', item: row('b', 'B!') });
    expect(s.items.map((r) => r.name)).toEqual(['a', 'B!', 'c']);
    s = pagedReducer(s, { type: 'remove', id: 'a' });
    expect(s.items.map((r) => r.id)).toEqual(['b', 'c']);
    expect(s.next).toBe('c1');
  });

  it('numeric ids (log entries) work alike', () => {
    const s = pagedReducer(initialPaged<{ id: number }>(), { type: 'page', key: 'k', items: [{ id: 1 }, { id: 2 }], next: null, append: false });
    expect(pagedReducer(s, { type: 'remove', id: 1 }).items).toEqual([{ id: 2 }]);
  });
});

describe('pagedView', () => {
  it('until its first page is in, a new key sees an empty loading list', () => {
    const s: PagedState<Row> = first('k1', [row('a')], 'c1');
    expect(pagedView(s, 'k1')).toBe(s);
    expect(pagedView(s, 'k2')).toMatchObject({ key: 'k2', status: 'loading', items: [], next: null });
  });
});
