/** The checkout pages rendered to markup: the SMS consent box, and the success page's error alone. */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { cartItem } from './checkoutFixtures.ts';
import { CheckoutForm } from './CheckoutPage.tsx';
import { OrderComplete, SuccessPage } from './SuccessPage.tsx';

const item = cartItem();

const at = (url: string, page: React.ReactNode) => renderToStaticMarkup(<MemoryRouter initialEntries={[url]}>{page}</MemoryRouter>);

describe('CheckoutForm', () => {
  it('has the SMS consent box the privacy policy promises, unticked, optional, with STOP and the policy link', () => {
    const html = at('/checkout', <CheckoutForm items={[item]} />);
    const box = /<input[^>]*name="sms_consent"[^>]*>/.exec(html)?.[0];
    expect(box).toBeDefined();
    expect(box).toContain('type="checkbox"');
    expect(box).not.toMatch(/checked/);
    expect(html).toContain('not a condition of purchase');
    expect(html).toContain('message and data rates may apply');
    expect(html).toContain('Reply STOP to opt out');
    expect(html).toContain('href="/privacy-policy"');
  });
});

describe('SuccessPage', () => {
  it.each(['/success', '/success?session_id=', '/success?session_id=nonsense', '/success?session_id=cs_%3Cscript%3E'])('%s shows only the error', (url) => {
    const html = at(url, <SuccessPage />);
    expect(html).toContain('We could not find this checkout.');
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('Order Complete');
    expect(html).not.toContain('Checkout steps');
  });

  it('with a session, says nothing of completion before the order is read', () => {
    const html = at('/success?session_id=cs_test_abcdefghijkl', <SuccessPage />);
    expect(html).toContain('Confirming your order...');
    expect(html).not.toContain('Order Complete');
  });

  it('calls the order complete once paid, and not while its payment is pending', () => {
    // The order link is checked against the page's own origin.
    vi.stubGlobal('window', { location: { origin: 'https://shop.example' } });
    const data = { success: true as const, order_id: 'o-1', status: 'paid', order_url: '/orders/o-1?token=abcdefghijkl', tracking_url: null };
    expect(at('/success', <OrderComplete data={data} polling={false} />)).toContain('Order Complete');
    const pending = at('/success', <OrderComplete data={{ ...data, status: 'pending' }} polling />);
    expect(pending).not.toContain('Order Complete');
    expect(pending).toContain('Confirming your payment');
    vi.unstubAllGlobals();
  });
});
