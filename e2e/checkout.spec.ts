/**
 * The checkout page and the embedded payment page: an empty cart, the spec's messages for a
 * missing ZIP and for failed quotes, a quote recalculated when the address changes, Place
 * Order's working state and the one order a double click makes, and a declined card that leaves
 * the order unpaid and the cart as it was. (The paid journey through to shipping and the
 * creator's earnings is checkout.serial.spec.ts.) Products come from seeded videos.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Page, type Request } from '@playwright/test';
import { formatCents } from '../shared/money.ts';
import { CHECKOUT_MESSAGES, type CheckoutBody } from '../shared/schemas/checkout.ts';
import { uniqueEmail } from './support/accounts.ts';
import {
  addToCart,
  apiCheckoutSession,
  apiOrderOfSession,
  catalogueProduct,
  checkoutPage,
  DECLINED_CARD,
  expectedOrder,
  makeProductThroughApi,
  payOnPaymentPage,
  sessionIdOf,
  termValue,
} from './support/checkout.ts';

const PRODUCT = 'Unisex T-Shirt';

/** A shirt from a seeded video in the cart, and the checkout page open. */
async function shirtInCart(page: Page, size = 'L') {
  const productId = await makeProductThroughApi(page);
  await page.goto(`/product/${productId}`);
  await addToCart(page, PRODUCT, { size });
  await page.goto('/checkout');
  await expect(checkoutPage(page).items).toHaveCount(1);
  return productId;
}

test('an empty cart says so and offers Continue Shopping', async ({ page }) => {
  await page.goto('/checkout');
  await expect(page.getByText('Your cart is empty', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Continue Shopping' }).click();
  await expect(page).toHaveURL(/\/merchandise$/);
});

test('an unknown checkout session and an order link with a wrong token are not found', async ({ page }) => {
  await page.goto('/success?session_id=cs_test_doesnotexist0000');
  await expect(page.getByRole('alert')).toContainText('We could not find this checkout.');
  await page.goto(`/orders/${randomUUID()}?token=not-the-right-token`);
  await expect(page.getByRole('alert')).toContainText('Order not found.');
});

test('the ZIP is asked for, failed quotes are named, and a new address is quoted again', async ({ page }) => {
  const productId = await shirtInCart(page);
  const checkout = checkoutPage(page);
  await expect(page.getByRole('link', { name: 'Continue Shopping' })).toHaveAttribute('href', `/product/${productId}`);

  await page.getByRole('button', { name: 'Calculate Shipping' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter your ZIP / Postal Code first.');
  await checkout.placeOrder.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please enter your ZIP / Postal Code before proceeding.' })).toBeVisible();

  // The quote service missing, then answering a cost that is not above 0.
  let answer: 'missing' | 'zero' | 'real' = 'missing';
  await page.route('**/api/calculate-shipping', (route) =>
    answer === 'missing'
      ? route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ error: 'Not Found', code: 'NOT_FOUND' }) })
      : answer === 'zero'
        ? route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ success: true, shipping_cost: 0, shipping_method: 'Standard' }) })
        : route.continue(),
  );
  await checkout.zip.fill('10001');
  await expect(page.getByRole('alert')).toHaveText('Shipping API endpoint not found (404). The backend may not be deployed. Please contact support.');
  answer = 'zero';
  await page.getByRole('button', { name: 'Calculate Shipping' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid shipping cost received (0). Please verify your ZIP code and try again.');

  // The real quote, then a change of country quotes again on its own.
  answer = 'real';
  const shirt = await catalogueProduct(PRODUCT);
  await page.getByRole('button', { name: 'Calculate Shipping' }).click();
  const us = await expectedOrder([{ product: shirt, size: 'L', quantity: 1 }], 'US');
  await expect(termValue(page, 'Shipping')).toHaveText(`${formatCents(us.shipping)} (Standard)`);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await checkout.country.selectOption('GB');
  await checkout.zip.fill('SW1A 1AA');
  const gb = await expectedOrder([{ product: shirt, size: 'L', quantity: 1 }], 'GB');
  await expect(termValue(page, 'Shipping')).toHaveText(`${formatCents(gb.shipping)} (Standard)`);
  await expect(termValue(page, 'Total')).toHaveText(formatCents(gb.total));
  // A 4-digit postcode is too short to quote on its own: the quote waits for Calculate Shipping.
  await checkout.country.selectOption('AU');
  await checkout.zip.fill('2000');
  await expect(termValue(page, 'Shipping')).toHaveText('Not calculated');
  await page.getByRole('button', { name: 'Calculate Shipping' }).click();
  const au = await expectedOrder([{ product: shirt, size: 'L', quantity: 1 }], 'AU');
  await expect(termValue(page, 'Shipping')).toHaveText(`${formatCents(au.shipping)} (Standard)`);
  await expect(termValue(page, 'Total')).toHaveText(formatCents(au.total));
});

test('Place Order works once however often it is pressed, and a refusal restores the button', async ({ page }) => {
  await shirtInCart(page);
  const checkout = checkoutPage(page);
  await checkout.zip.fill('10001');
  await expect(termValue(page, 'Shipping')).toHaveText(/^\$\d+\.\d\d \(Standard\)$/);

  const bodies: CheckoutBody[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/create-checkout-session', async (route) => {
    bodies.push(route.request().postDataJSON() as CheckoutBody);
    await held;
    await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: 'An item in your cart has a color or size that is no longer sold. Please remove it and add it again.', code: 'UNKNOWN_VARIANT' }) });
  });
  await checkout.placeOrder.click();
  const working = page.getByRole('button', { name: 'Processing Order...' });
  await expect(working).toBeDisabled();
  await working.click({ force: true });
  release();
  await expect(page.getByRole('alert')).toHaveText('Checkout Error: An item in your cart has a color or size that is no longer sold. Please remove it and add it again.');
  await expect(checkout.placeOrder).toBeEnabled();
  expect(bodies).toHaveLength(1);
  // What to print and where; no price, and the key that makes a repeat find the same order.
  expect(bodies[0]).toMatchObject({ shipping_address: { zip: '10001', country_code: 'US' }, sms_consent: false });
  expect(bodies[0]!.cart).toEqual([expect.objectContaining({ variant_id: expect.stringContaining('|L'), quantity: 1 })]);
  expect(JSON.stringify(bodies[0])).not.toMatch(/price/);

  // Pressed again for the same cart and address: the same attempt, so the same key.
  await checkout.placeOrder.click();
  await expect(page.getByRole('alert')).toHaveText('Checkout Error: An item in your cart has a color or size that is no longer sold. Please remove it and add it again.');
  expect(bodies).toHaveLength(2);
  expect(bodies[1]!.idempotency_key).toBe(bodies[0]!.idempotency_key);

  // The server not reached.
  await page.unroute('**/api/create-checkout-session');
  await page.route('**/api/create-checkout-session', (route) => route.abort('internetdisconnected'));
  await checkout.placeOrder.click();
  await expect(page.getByRole('alert')).toHaveText('Network error starting checkout');
});

test('a key the server says belongs to another request is replaced once, and the checkout goes on', async ({ page }) => {
  await shirtInCart(page);
  const checkout = checkoutPage(page);
  await checkout.zip.fill('10001');
  await expect(termValue(page, 'Shipping')).toHaveText(/^\$\d+\.\d\d \(Standard\)$/);

  const keys: string[] = [];
  await page.route('**/api/create-checkout-session', async (route) => {
    keys.push((route.request().postDataJSON() as CheckoutBody).idempotency_key!);
    if (keys.length > 1) return route.fallback();
    await route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ success: false, code: 'CONFLICT', error: CHECKOUT_MESSAGES.keyReused }) });
  });
  await checkout.placeOrder.click();
  await page.waitForURL((url) => url.pathname.startsWith('/pay/'));
  expect(keys).toHaveLength(2);
  expect(keys[1]).not.toBe(keys[0]);
});

test('a declined card leaves the order unpaid and the cart as it was', async ({ page }) => {
  await shirtInCart(page, 'XL');
  const checkout = checkoutPage(page);
  await checkout.country.selectOption('CA');
  await checkout.zip.fill('M5V 3L9');
  const shirt = await catalogueProduct(PRODUCT);
  const expected = await expectedOrder([{ product: shirt, size: 'XL', quantity: 1 }], 'CA');
  await expect(termValue(page, 'Shipping')).toHaveText(`${formatCents(expected.shipping)} (Standard)`);

  const sessions: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/create-checkout-session') sessions.push(r);
  });
  await checkout.placeOrder.click();
  const email = uniqueEmail('declined');
  await payOnPaymentPage(page, DECLINED_CARD, email, expected.total);
  await expect(page.getByText('Your card was declined.')).toBeVisible();
  expect(sessions).toHaveLength(1);

  const sessionId = sessionIdOf(page);
  const session = await apiCheckoutSession(page, sessionId);
  expect(session.status).toBe('pending');
  const order = await apiOrderOfSession(page, sessionId);
  expect(order).toMatchObject({ status: 'pending', paid_at: null, subtotal_cents: expected.subtotal, shipping_cents: expected.shipping, total_cents: expected.total });
  expect(order.history.map((h) => h.status)).not.toContain('paid');

  // Back at checkout, the cart is whole.
  await page.goto('/checkout');
  await expect(checkout.items).toHaveCount(1);
  await expect(checkout.items.first()).toContainText(PRODUCT);
  await expect(checkout.items.first()).toContainText('Size: XL');
  await expect(page.getByRole('button', { name: 'Cart, 1 item' })).toBeVisible();
});
