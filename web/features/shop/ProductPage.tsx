import { useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { isMerchCategory } from '../../../shared/categories.ts';
import { StatusMessage } from '../../components/StatusMessage.tsx';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { CategoryLinks } from './CategoryLinks.tsx';
import { CategorySwitcher } from './CategorySwitcher.tsx';
import { categoryHref, MERCH_CATEGORY_LABELS, type CategoryChoice } from './merchCategories.ts';
import { ProductCard } from './ProductCard.tsx';
import { productRequestOf, type ProductData } from './productFetch.ts';
import { groupByCategory } from './productGroups.ts';
import { choiceOf, defaultSelection, screenshotChoices, type ScreenshotSelection } from './productPage.ts';
import { ScreenshotPicker } from './ScreenshotPicker.tsx';
import { ShopActions, type CartModalComponent } from './ShopActions.tsx';
import { useLoadedImage } from './useLoadedImage.ts';
import { useProductData } from './useProductData.ts';
import './ProductPage.css';

/** /product/{productId} and /product/browse: one screen, told apart by the path. */
export function ProductPage({ CartModal }: { CartModal: CartModalComponent }) {
  const { productId } = useParams();
  const [search] = useSearchParams();
  const req = productRequestOf(productId, search);
  const [attempt, setAttempt] = useState(0);
  const state = useProductData(req, attempt);
  useDocumentTitle(state.status === 'ready' ? (state.data.product?.video_title ?? 'Merchandise') : null);
  const retry = () => setAttempt((n) => n + 1);

  if (state.status === 'loading') return <StatusMessage kind="loading" title="Loading product..." />;
  if (state.status === 'not-found') {
    return (
      <StatusMessage kind="error" title="Product Not Found">
        <p>This product does not exist or was removed.</p>
        <Link className="button button--primary" to="/merchandise">
          Browse merchandise
        </Link>
      </StatusMessage>
    );
  }
  if (state.status === 'error') {
    return (
      <StatusMessage kind="error" title="Error Loading Product">
        <p className="product-page__error-detail">{state.message}</p>
        <button type="button" className="button button--primary" onClick={retry}>
          Retry
        </button>
        <CategoryLinks />
      </StatusMessage>
    );
  }
  const shown = categoryShown(state.data);
  return (
    <ProductView
      data={state.data}
      stale={state.stale}
      refreshError={state.refreshError}
      // While another category loads, its link is already the current one.
      current={state.switching ? (req.category ?? shown) : shown}
      switching={state.switching ?? false}
      unknownCategory={req.unknownCategory}
      onRetry={retry}
      CartModal={CartModal}
    />
  );
}

/** The category the server answered with; null or an unknown one is every product. */
function categoryShown(data: ProductData): CategoryChoice {
  return data.category && isMerchCategory(data.category) ? data.category : 'all';
}

function ProductView({
  data,
  stale,
  refreshError,
  current,
  switching,
  unknownCategory,
  onRetry,
  CartModal,
}: {
  data: ProductData;
  stale: boolean;
  refreshError: string | null;
  current: CategoryChoice;
  switching: boolean;
  unknownCategory: string | null;
  onRetry: () => void;
  CartModal: CartModalComponent;
}) {
  const merch = data.product;
  const choices = merch ? screenshotChoices(merch) : [];
  const [picked, setPicked] = useState<{ id: string; selection: ScreenshotSelection } | null>(null);
  const selection = merch && picked?.id === merch.id ? picked.selection : defaultSelection(choices, merch?.category ?? null);
  const screenshot = choiceOf(choices, selection);
  const loaded = useLoadedImage(screenshot?.url ?? null);
  const imageSize = screenshot?.size ?? (loaded.image ? { width: loaded.image.naturalWidth, height: loaded.image.naturalHeight } : null);
  const location = useLocation();
  const search = new URLSearchParams(location.search);
  const shown = categoryShown(data);
  const categoryLabel = shown === 'all' ? 'All products' : MERCH_CATEGORY_LABELS[shown];
  const cardProps = { merch, screenshot, image: loaded.image, imageSize: merch ? imageSize : null };

  return (
    <section className="product-page" aria-labelledby="product-page-title">
      <div className="product-page__step">
        <span className="product-page__step-number" aria-hidden="true">
          3
        </span>
        <p className="product-page__step-text">
          <span className="visually-hidden">Step 3: </span>Make Merchandise - Create custom products with your screenshot
        </p>
      </div>

      <header className="product-page__header">
        <div>
          <h1 id="product-page-title" className="product-page__title">
            {merch ? merch.video_title : `Merchandise: ${categoryLabel}`}
          </h1>
          {merch && <p className="product-page__byline">by {merch.creator_name} · {categoryLabel}</p>}
        </div>
        <ShopActions label="Cart actions" CartModal={CartModal} />
      </header>

      {stale && refreshError && (
        <div className="product-page__stale" role="status">
          <span>Showing the copy saved on this device. {refreshError}</span>
          <button type="button" className="button button--ghost" onClick={onRetry}>
            Retry
          </button>
        </div>
      )}

      {merch ? (
        choices.length > 0 && (
          <div className="product-page__choose">
            <ScreenshotPicker choices={choices} selected={selection} onSelect={(s) => setPicked({ id: merch.id, selection: s })} />
            {screenshot && (
              <figure className="product-page__preview">
                <img src={screenshot.url} crossOrigin="anonymous" alt={`Selected: ${screenshot.label}`} />
                <figcaption>{screenshot.label}</figcaption>
              </figure>
            )}
          </div>
        )
      ) : (
        <div className="product-page__browse-note" role="note">
          <p>
            These are the products you can print on. To make one, you need a screenshot from a video: open a video, capture a frame and
            choose Make Merchandise.
          </p>
          <Link className="button button--primary" to="/">
            Find a video
          </Link>
        </div>
      )}

      <section className="product-page__products" aria-labelledby="product-page-products-title">
        <h2 id="product-page-products-title" className="product-page__products-title">
          Products
        </h2>
        <CategorySwitcher current={current} />
        {unknownCategory && (
          <p className="product-page__unknown-category" role="status">
            There is no category called “{unknownCategory}”. Showing every category.
          </p>
        )}
        <div className="product-page__listing" aria-busy={switching}>
          {data.products.length === 0 ? (
            <p>No products in this category yet.</p>
          ) : shown === 'all' ? (
            groupByCategory(data.products).map((group) => {
              const label = MERCH_CATEGORY_LABELS[group.category];
              return (
                <section key={group.category} className="product-group" aria-labelledby={`product-group-${group.category}`}>
                  <div className="product-group__header">
                    <h3 id={`product-group-${group.category}`} className="product-group__title">
                      {label}
                    </h3>
                    <Link className="product-group__more" to={categoryHref(location.pathname, search, group.category)}>
                      See all {group.total} {label} products
                    </Link>
                  </div>
                  <div className="product-page__grid product-group__grid">
                    {group.products.map((p) => (
                      <ProductCard key={p.sku} product={p} headingLevel={4} {...cardProps} />
                    ))}
                  </div>
                </section>
              );
            })
          ) : (
            <div className="product-page__grid">
              {data.products.map((p) => (
                <ProductCard key={p.sku} product={p} {...cardProps} />
              ))}
            </div>
          )}
        </div>
      </section>

      <ShopActions label="Cart actions (bottom)" CartModal={CartModal} />
    </section>
  );
}
