/**
 * The tiers page rendered to markup (unit tests run in Node, without a DOM): both tiers with
 * their limits and Pro's price and trial, each card's action for each kind of visitor, and the
 * earnings calculator's fields and figures for the spec's example, other units and bad input.
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SubscriptionTier } from '../../../shared/subscriptions.ts';
import { EarningsCalculator } from './EarningsCalculator.tsx';
import { EXAMPLE_FIELDS, type CalculatorFields } from './earningsCalculator.ts';
import { SubscriptionTiersPage, TierCards, type Viewer } from './SubscriptionTiersPage.tsx';

const auth = vi.hoisted(() => ({ state: { status: 'loading', user: null as unknown } }));
vi.mock('../../stores/useAuth.ts', () => ({ useAuth: <T,>(select: (s: typeof auth.state) => T) => select(auth.state) }));
vi.mock('idb-keyval', () => ({ createStore: vi.fn(), get: vi.fn(), set: vi.fn(), del: vi.fn() }));

function page(status: string) {
  auth.state = { status, user: null };
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={['/subscription-tiers']}>
      <SubscriptionTiersPage />
    </MemoryRouter>,
  );
}

const cards = (viewer: Viewer, currentTier: SubscriptionTier | null = null, busy = false) =>
  renderToStaticMarkup(<TierCards viewer={viewer} currentTier={currentTier} busy={busy} onSubscribe={() => undefined} onStartFree={() => undefined} />);

const calculator = (initial: CalculatorFields = EXAMPLE_FIELDS) => renderToStaticMarkup(<EarningsCalculator initial={initial} />);

/** The markup's text, tags removed (and the one entity the page uses decoded). */
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&#x27;/g, "'").replace(/\s+/g, ' ').trim();
/** Each card's text, in order. */
const cardTexts = (html: string) => [...html.matchAll(/<li class="subscription-tiers__card [^"]*"[^>]*>(.*?)<\/ul><div class="subscription-tiers__action">(.*?)<\/div><\/li>/g)].map((m) => ({ body: text(m[1]!), action: text(m[2]!) }));
/** The calculator's figures as term → value. */
const figures = (html: string) =>
  Object.fromEntries([...html.matchAll(/<dt class="earnings-calculator__term">([^<]*)<\/dt><dd class="[^"]*">(.*?)<\/dd>/g)].map((m) => [m[1], text(m[2]!)]));

beforeEach(() => {
  auth.state = { status: 'loading', user: null };
});

describe('SubscriptionTiersPage', () => {
  it('shows the heading, both tiers and the calculator', () => {
    const html = page('signed-out');
    expect(html).toMatch(/<h1 id="[^"]+" class="subscription-tiers__title">Choose your plan<\/h1>/);
    expect(html).toContain('<ul class="subscription-tiers__cards" aria-label="Subscription tiers">');
    expect(html).toMatch(/<h2 id="[^"]+" class="subscription-tiers__heading">Earnings calculator<\/h2>/);
  });

  it('Free: $0, videos up to 100 MB and 10 minutes; Pro: $9.99/month, 2 GB, 60 minutes and a 7-day trial', () => {
    const [free, pro] = cardTexts(page('signed-out'));
    expect(free?.body).toBe('Free $0/month Videos up to 100 MB Videos up to 10 minutes long Keep 70% of the profit on merch made from your videos');
    expect(pro?.body).toBe(
      'Pro $9.99/month Videos up to 2 GB Videos up to 60 minutes long Keep 70% of the profit on merch made from your videos 7-day free trial',
    );
  });

  it('each card and its list of features are named', () => {
    const html = cards('signed-out');
    expect(html).toMatch(/<li class="subscription-tiers__card subscription-tiers__card--pro" aria-labelledby="([^"]+)"><h2 id="\1"/);
    expect(html).toContain('<ul class="subscription-tiers__features" aria-label="Pro includes">');
  });

  it('signed out: Start Free, and the trial button says sign-in comes first', () => {
    const [free, pro] = cardTexts(cards('signed-out'));
    expect(free?.action).toBe('Start Free');
    expect(pro?.action).toBe("Start 7-day free trial You'll sign in first.");
    expect(cards('signed-out')).not.toContain('disabled');
  });

  it('while the session is checked, both buttons wait', () => {
    const html = page('loading');
    expect(html).toContain('<button type="button" class="button button--ghost" disabled="">Start Free</button>');
    expect(html).toContain('<button type="button" class="button button--primary" disabled="">Start 7-day free trial</button>');
  });

  it('signed in on Free: Free is the current plan and Pro offers the trial', () => {
    const html = cards('signed-in', 'free');
    const [free, pro] = cardTexts(html);
    expect(free?.action).toBe('Current plan');
    expect(pro?.action).toBe('Start 7-day free trial');
    expect(html).toContain('subscription-tiers__card--free subscription-tiers__card--current');
  });

  it('signed in on Pro: Pro is the current plan, and nothing to start', () => {
    const [free, pro] = cardTexts(cards('signed-in', 'pro'));
    expect(free?.action).toBe('');
    expect(pro?.action).toBe('Current plan');
  });

  it('signed in, tier not known yet: no plan marked, the trial offered', () => {
    const [free, pro] = cardTexts(cards('signed-in', null));
    expect(free?.action).toBe('');
    expect(pro?.action).toBe('Start 7-day free trial');
  });

  it('while a checkout starts, the button is busy and cannot be pressed again', () => {
    expect(cards('signed-in', 'free', true)).toContain(
      '<button type="button" class="button button--primary" disabled="" aria-busy="true">Starting checkout...</button>',
    );
  });
});

describe('EarningsCalculator', () => {
  it("labels its fields and starts with the spec's example", () => {
    const html = calculator();
    for (const [label, value] of [
      ['Price per item ($)', '21.69'],
      ['Overhead per item ($)', '11.69'],
      ['Commission per item ($)', '3'],
      ['Units per month', '100'],
    ] as const) {
      const m = new RegExp(`<label class="field__label" for="([^"]+)">${label.replace(/[()$]/g, '\\$&')}</label><input id="\\1"[^>]*value="${value}"`).exec(html);
      expect(m, label).not.toBeNull();
    }
  });

  it('the example: $7.00 profit per item and $4.90 share per item', () => {
    expect(figures(calculator())).toEqual({
      'Profit per item': '$7.00',
      'Profit per month': '$700.00',
      'Your share (70%) per item': '$4.90',
      'Your share per month': '$490.00',
    });
  });

  it('the figures sit in a status region, so changes are announced', () => {
    expect(calculator()).toContain('<div class="earnings-calculator__results" role="status" aria-label="Your earnings"><dl class="earnings-calculator__figures">');
  });

  it('the monthly figures follow the units', () => {
    expect(figures(calculator({ ...EXAMPLE_FIELDS, units: '30' }))).toMatchObject({
      'Profit per item': '$7.00',
      'Profit per month': '$210.00',
      'Your share per month': '$147.00',
    });
  });

  it('a loss is shown as one, with no share', () => {
    const html = calculator({ ...EXAMPLE_FIELDS, price: '10' });
    expect(figures(html)).toMatchObject({ 'Profit per item': '-$4.69 (loss)', 'Your share (70%) per item': '$0.00' });
    expect(html).toContain('earnings-calculator__value earnings-calculator__value--loss');
    expect(text(html)).toContain('At this price each item sells at a loss, so there is no profit to share.');
  });

  it('invalid input: a message at the field, marked invalid, and no figures (never NaN)', () => {
    for (const [changes, message] of [
      [{ price: '' }, 'Enter a price, like 21.69.'],
      [{ price: '-5' }, 'Enter an amount of $0 or more.'],
      [{ overhead: 'abc' }, 'Enter an amount in dollars, like 11.69.'],
      [{ commission: '3.001' }, 'Use at most 2 decimal places.'],
    ] as const) {
      const html = calculator({ ...EXAMPLE_FIELDS, ...changes });
      expect(html).toMatch(new RegExp(`aria-invalid="true" aria-describedby="([^"]+)"[^>]*/><p id="\\1" class="field__error">${message.replace(/[.$]/g, '\\$&')}</p>`));
      expect(html).not.toContain('<dl');
      expect(html).not.toContain('NaN');
      expect(text(html)).toContain('Fix the highlighted fields to see your earnings.');
    }
  });
});
