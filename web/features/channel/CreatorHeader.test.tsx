/** The profile's Pro badge beside the creator's name (rendered to markup, no DOM). */
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CreatorHeader } from './CreatorHeader.tsx';

describe("the profile's Pro badge", () => {
  const header = (pro?: boolean) =>
    renderToStaticMarkup(<CreatorHeader headingId="h" name="Maker" bio="" profileImageUrl={null} coverImageUrl={null} {...(pro === undefined ? {} : { pro })} />);
  it('shown beside the name for a Pro creator', () => {
    expect(header(true)).toContain('<h1 id="h" class="creator-header__name">Maker<span class="creator-header__badge" title="Pro subscriber">Pro</span></h1>');
  });
  it('not for Free, nor when the tier is not known', () => {
    expect(header(false)).not.toContain('creator-header__badge');
    expect(header()).not.toContain('creator-header__badge');
  });
});
