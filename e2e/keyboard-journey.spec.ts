/**
 * The whole journey with the keyboard alone (Tab, Shift+Tab, Enter, Space, arrows, typing; no
 * pointer): from the feed to a video, a captured frame, a crop moved and resized on the player,
 * Make Merch with a sign-in, a product's colour and size, the cart, checkout to a Canadian
 * address, the hosted payment page and the success page. Every control focused on the way
 * shows where the focus is (an outline or a box shadow), and only the first page is opened by
 * its address.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { PASSWORD, sameSite, uniqueEmail } from './support/accounts.ts';
import { TEST_CARD, termValue } from './support/checkout.ts';
import { parseSize } from './support/printTool.ts';
import { screenshotImages } from './support/qaCapture.ts';
import { seededVideo } from './support/videos.ts';

/** Most key presses allowed to reach one control: the feed and the product page are long. */
const MAX_PRESSES = 150;

/** What has the focus, and whether it is drawn: `:focus-visible` with an outline or a box shadow. */
async function focusState(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return { what: 'nothing', visible: false, exempt: false };
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== 'none';
    const what = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('aria-label') ? `[aria-label="${el.getAttribute('aria-label')}"]` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    // Focus a page moves on purpose to a region it skips to (main, a heading) is not a control;
    // the player's own controls draw their focus inside the video element.
    const exempt = (el instanceof HTMLElement && el.tabIndex < 0) || el.tagName === 'VIDEO';
    return { what, visible: el.matches(':focus-visible') && (outline || shadow), exempt };
  });
}

async function expectFocusVisible(page: Page, step: string) {
  const state = await focusState(page);
  if (state.what === 'nothing' || state.exempt) return;
  expect(state.visible, `${step}: the focused ${state.what} shows no focus ring`).toBe(true);
}

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement).catch(() => false);

/** Presses `key` (Tab by default) until `target` has the focus, checking at each stop that the focus is drawn. */
async function tabTo(page: Page, target: Locator, step: string, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  await expect(target).toBeVisible();
  for (let presses = 0; !(await isFocused(target)); presses++) {
    expect(presses, `${step}: ${key} never reached the control`).toBeLessThan(MAX_PRESSES);
    await page.keyboard.press(key);
    await expectFocusVisible(page, step);
  }
  await expectFocusVisible(page, step);
}

/** The skip link, then Enter: the focus starts at the page's content, past the navbar and sidebar. */
async function skipToContent(page: Page) {
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await tabTo(page, skip, 'skip link');
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
}

test('the journey from a video to a paid order with the keyboard alone', async ({ page, request }) => {
  test.setTimeout(180_000);
  // The customer who signs in when Make Merch asks, made through the API.
  const email = uniqueEmail('keyboard');
  expect((await request.post('/api/auth/signup', { data: { email, password: PASSWORD }, headers: sameSite() })).status()).toBe(201);

  const seeded = await seededVideo(request);
  const videoPath = `/video/${seeded.category_id}/${seeded.id}`;

  // Home: past the navbar to the feed, then the video's card.
  await page.goto('/');
  await skipToContent(page);
  await tabTo(page, page.locator(`main a[href="${videoPath}"]`).first(), 'the video in the feed');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(videoPath);

  // Capture the frame on screen.
  const capture = page.getByRole('button', { name: 'Select Screenshot', exact: true });
  await expect(capture).toBeEnabled({ timeout: 20_000 });
  const shots = await screenshotImages(page).count();
  await tabTo(page, capture, 'Select Screenshot');
  await page.keyboard.press('Enter');
  await expect(screenshotImages(page)).toHaveCount(shots + 1, { timeout: 20_000 });

  // Crop on the player: the box takes the focus, arrows move it, Alt+arrows resize it.
  const cropMode = page.getByRole('button', { name: 'Crop Mode', exact: true });
  await tabTo(page, cropMode, 'Crop Mode', 'Shift+Tab');
  await page.keyboard.press('Space');
  await expect(cropMode).toHaveAttribute('aria-pressed', 'true');
  const box = page.getByRole('group', { name: 'Crop box' });
  const readout = page.getByRole('status', { name: 'Crop size' });
  await tabTo(page, box, 'the crop box', 'Shift+Tab');
  const start = parseSize(await readout.textContent());
  const left = () => box.evaluate((el: HTMLElement) => el.style.left);
  const leftBefore = await left();
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowDown');
  await expect.poll(left).not.toBe(leftBefore);
  await expect(readout).toHaveText(`${start.width} × ${start.height} px`);
  await page.keyboard.press('Alt+Shift+ArrowLeft');
  await page.keyboard.press('Alt+ArrowUp');
  await expect(readout).toHaveText(`${start.width - 10} × ${start.height - 1} px`);
  await expectFocusVisible(page, 'the crop box after moving');
  await tabTo(page, page.getByRole('button', { name: 'Apply Crop', exact: true }), 'Apply Crop');
  await page.keyboard.press('Enter');
  await expect(box).toBeHidden();
  await expect(screenshotImages(page).last()).toHaveAttribute('data-source', 'crop');

  // Make Merch asks for a sign-in: the dialog has the focus, and the form is filled by typing.
  await tabTo(page, page.getByRole('button', { name: 'Make Merch', exact: true }), 'Make Merch');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Login' });
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByLabel('Email'), 'sign-in email');
  await page.keyboard.type(email);
  await tabTo(page, dialog.getByLabel('Password'), 'sign-in password');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/product\/[0-9a-f-]{36}$/, { timeout: 30_000 });

  // A product with colours and sizes: each chosen with the arrow keys, then Add to Cart.
  const card = page.getByRole('article').filter({ has: page.getByLabel('Size') }).first();
  await expect(card).toBeVisible({ timeout: 20_000 });
  await skipToContent(page);
  const colour = card.getByLabel('Color');
  const size = card.getByLabel('Size');
  await tabTo(page, colour, 'Color');
  const colourBefore = await colour.inputValue();
  await page.keyboard.press('ArrowDown');
  await expect(colour).not.toHaveValue(colourBefore);
  await tabTo(page, size, 'Size');
  const sizeBefore = await size.inputValue();
  await page.keyboard.press('ArrowDown');
  await expect(size).not.toHaveValue(sizeBefore);
  const chosenSize = await size.inputValue();
  await tabTo(page, card.getByRole('button', { name: 'Add to Cart' }), 'Add to Cart');
  await page.keyboard.press('Enter');
  await expect(card.getByRole('status')).toHaveText('Added to cart!');

  // The cart, then checkout.
  await tabTo(page, page.getByRole('button', { name: /^View Cart/ }).last(), 'View Cart');
  await page.keyboard.press('Enter');
  const cart = page.getByRole('dialog', { name: 'Your Cart' });
  await expect(cart).toBeVisible();
  await expect(cart).toContainText(`Size: ${chosenSize}`);
  await tabTo(page, cart.getByRole('link', { name: /Checkout/ }), 'Checkout in the cart');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/checkout$/);

  // Where it goes: a Canadian postcode, the country chosen by typing its name.
  await skipToContent(page);
  await tabTo(page, page.getByLabel('Country'), 'Country');
  await page.keyboard.type('Canada');
  await expect(page.getByLabel('Country')).toHaveValue('CA');
  await tabTo(page, page.getByLabel('ZIP/Postal Code'), 'ZIP', 'Shift+Tab');
  await page.keyboard.type('M5V 3L9');
  await expect(termValue(page, 'Shipping')).toHaveText(/^\$\d+\.\d\d \(Standard\)$/, { timeout: 20_000 });
  await tabTo(page, page.getByRole('button', { name: 'Place Order' }), 'Place Order');
  await page.keyboard.press('Enter');

  // The hosted payment page, field by field.
  await page.waitForURL((url) => url.pathname.startsWith('/pay/'), { timeout: 30_000 });
  const fill = async (label: string | RegExp, value: string, replace = false) => {
    await tabTo(page, page.getByLabel(label), `payment: ${String(label)}`);
    if (replace) await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(value);
  };
  await fill('Email', email, true);
  await fill('Full name', 'Kay Board');
  await fill('Address line 1', '1 King St W');
  await fill('City', 'Toronto');
  await fill(/^State \/ Province/, 'ON');
  await expect(page.getByLabel('ZIP / Postal code')).toHaveValue('M5V 3L9');
  await fill('Card number', TEST_CARD);
  await fill(/Expiration date/, '12 / 34', true);
  await fill('CVC', '123');
  await tabTo(page, page.getByRole('button', { name: /^Pay \$/ }), 'Pay');
  await page.keyboard.press('Enter');

  await page.waitForURL((url) => url.pathname === '/success', { timeout: 30_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Order Complete' })).toBeVisible({ timeout: 30_000 });
});
