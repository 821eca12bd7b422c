import { Suspense, useState, type ComponentType } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { useAuth, type SessionUser } from '../../stores/useAuth.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { createProduct } from './createProduct.ts';
import { browsePath, CATEGORY_CHOICES, type CategoryChoice } from './merchCategories.ts';
import { readPendingMerch } from './pendingRecord.ts';
import './MerchandisePage.css';

/** The sign-in modal, handed in by the app layer (it belongs to auth); loaded when first opened. */
export type AuthModalComponent = ComponentType<{ onClose: () => void; onSuccess: (user: SessionUser) => void }>;

type Work = { status: 'idle' } | { status: 'creating'; category: CategoryChoice } | { status: 'error'; message: string };

/**
 * /merchandise: the shop's categories. Choosing one needs a sign-in; then the viewer's pending
 * screenshots become a product of that category and the browser goes to its page, or, with
 * nothing pending, the category's products are shown for browsing.
 */
export function MerchandisePage({ AuthModal }: { AuthModal: AuthModalComponent }) {
  useDocumentTitle('Merchandise');
  const authStatus = useAuth((s) => s.status);
  const user = useAuth((s) => s.user);
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const highlighted = search.get('category');
  const [signInFor, setSignInFor] = useState<CategoryChoice | null>(null);
  const [work, setWork] = useState<Work>({ status: 'idle' });

  const proceed = async (category: CategoryChoice, email: string | null) => {
    setWork({ status: 'creating', category });
    const record = await readPendingMerch();
    if (!record) {
      void navigate(browsePath(category, email));
      return;
    }
    try {
      const url = await createProduct(record, category === 'all' ? null : category, { userEmail: email });
      // A full-page load, as the spec asks after a product is made; the address names the category chosen.
      window.location.assign(`${url}?${new URLSearchParams({ category }).toString()}`);
    } catch (error) {
      setWork({ status: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  };

  const choose = (category: CategoryChoice) => {
    if (authStatus === 'signed-in' && user) void proceed(category, user.email);
    else setSignInFor(category);
  };

  const checking = authStatus === 'loading' || authStatus === 'pending';
  const busy = work.status === 'creating';

  return (
    <section className="merchandise-page" aria-labelledby="merchandise-title">
      <h1 id="merchandise-title" className="merchandise-page__title">
        Choose a merchandise category
      </h1>
      <p className="merchandise-page__lead">Pick what to print your screenshot on. You will see every product of the category with your screenshot on it.</p>
      <ul className="merchandise-page__grid" aria-label="Merchandise categories">
        {CATEGORY_CHOICES.map((c) => (
          <li key={c.value}>
            <button
              type="button"
              className={`merchandise-page__category${highlighted === c.value ? ' merchandise-page__category--highlighted' : ''}`}
              disabled={checking || busy}
              aria-busy={work.status === 'creating' && work.category === c.value}
              onClick={() => choose(c.value)}
            >
              {c.label}
            </button>
          </li>
        ))}
      </ul>
      {work.status === 'creating' && <StatusMessage kind="loading" title="Creating your product..." />}
      {work.status === 'error' && <StatusMessage kind="error" title={work.message} />}
      {signInFor && (
        <Suspense fallback={null}>
          <AuthModal
            onClose={() => setSignInFor(null)}
            onSuccess={(signedIn) => {
              void proceed(signInFor, signedIn.email);
            }}
          />
        </Suspense>
      )}
    </section>
  );
}
