import { StepFlow } from '../../components/StepFlow.tsx';
import { useBrowse } from '../../stores/useBrowse.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { CategoryChips } from './CategoryChips.tsx';
import { VideoGrid } from './VideoGrid.tsx';

export function HomePage() {
  const category = useBrowse((s) => s.category);
  const setCategory = useBrowse((s) => s.setCategory);
  useDocumentTitle(null);

  return (
    <div className="home">
      <h1 className="visually-hidden">Choose a video</h1>
      <StepFlow current={1} />
      <CategoryChips value={category} onChange={setCategory} />
      <VideoGrid category={category} />
    </div>
  );
}
