import { MerchandisePage } from '../../features/shop/MerchandisePage.tsx';
import { AuthModal } from '../lazyModals.ts';

/** /merchandise: choosing a category may need a sign-in first. */
export function MerchandiseRoute() {
  return <MerchandisePage AuthModal={AuthModal} />;
}
