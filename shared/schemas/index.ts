/** Every API route the server registers, defined once (see route.ts). */
import {
  deleteAccountRoute,
  loginRoute,
  logoutRoute,
  meRoute,
  oidcCallbackRoute,
  oidcLoginRoute,
  signupRoute,
  subscriptionEmailRoute,
  welcomeEmailRoute,
} from './auth.ts';
import { captureScreenshotRoute } from './capture.ts';
import { devMailMessageRoute, devMailRoute } from './mail.ts';
import {
  calculateShippingRoute,
  checkoutSessionRoute,
  createCheckoutSessionRoute,
  embeddedPaymentPageRoute,
  embeddedPaymentSubmitRoute,
  orderRoute,
  placeOrderRoute,
  salesAnalyticsRoute,
  stripeWebhookRoute,
} from './checkout.ts';
import { catalogueRoute } from './catalogue.ts';
import { printfulWebhookRoute, trackingPageRoute } from './fulfilment.ts';
import { processPrintQualityRoute, processShirtImageRoute } from './print.ts';
import { browseProductsRoute, createProductRoute, productRoute } from './products.ts';
import { channelRoute, profileRoute, recordViewRoute, searchChannelsRoute } from './channels.ts';
import {
  deleteVideoRoute,
  ensureUserRoute,
  myProfileRoute,
  myVideosRoute,
  profileImageRoute,
  updateChannelRoute,
  updateProfileRoute,
  uploadVideoRoute,
  videoInfoRoute,
} from './studio.ts';
import { newestCreatorsRoute } from './creators.ts';
import { healthRoute } from './health.ts';
import { advanceAppClockRoute, appClockRoute } from './clock.ts';
import { mediaRoute } from './media.ts';
import { paymentMethodsRoute, paymentPortalRoute, payoutSetupRoute, payoutStatementRoute, runPayoutsRoute, savePayoutMethodRoute, saveTaxInfoRoute } from './payouts.ts';
import { achFileRoute, confirmAchUploadRoute } from './payouts.ts';
import { connectOnboardingPageRoute, connectOnboardingSubmitRoute, paypalPayoutsWebhookRoute, stripeConnectWebhookRoute } from './payouts.ts';
import { feedRoute, videoRoute } from './videos.ts';
import {
  activateSubscriptionRoute,
  embeddedManagePageRoute,
  embeddedManageSubmitRoute,
  manageSubscriptionRoute,
  mySubscriptionRoute,
  subscriptionCheckoutRoute,
  userSubscriptionRoute,
  verifySubscriptionRoute,
} from './subscriptions.ts';

export const API_ROUTES = [
  healthRoute,
  appClockRoute,
  advanceAppClockRoute,
  feedRoute,
  videoRoute,
  newestCreatorsRoute,
  catalogueRoute,
  mediaRoute,
  signupRoute,
  loginRoute,
  meRoute,
  logoutRoute,
  oidcLoginRoute,
  oidcCallbackRoute,
  deleteAccountRoute,
  welcomeEmailRoute,
  subscriptionEmailRoute,
  devMailRoute,
  devMailMessageRoute,
  channelRoute,
  profileRoute,
  searchChannelsRoute,
  recordViewRoute,
  uploadVideoRoute,
  myVideosRoute,
  deleteVideoRoute,
  myProfileRoute,
  updateProfileRoute,
  profileImageRoute,
  ensureUserRoute,
  updateChannelRoute,
  videoInfoRoute,
  captureScreenshotRoute,
  processShirtImageRoute,
  processPrintQualityRoute,
  createProductRoute,
  productRoute,
  browseProductsRoute,
  stripeWebhookRoute,
  calculateShippingRoute,
  createCheckoutSessionRoute,
  placeOrderRoute,
  checkoutSessionRoute,
  orderRoute,
  embeddedPaymentPageRoute,
  embeddedPaymentSubmitRoute,
  salesAnalyticsRoute,
  paymentMethodsRoute,
  payoutSetupRoute,
  savePayoutMethodRoute,
  saveTaxInfoRoute,
  runPayoutsRoute,
  achFileRoute,
  confirmAchUploadRoute,
  paymentPortalRoute,
  payoutStatementRoute,
  printfulWebhookRoute,
  trackingPageRoute,
  paypalPayoutsWebhookRoute,
  stripeConnectWebhookRoute,
  connectOnboardingPageRoute,
  connectOnboardingSubmitRoute,
  subscriptionCheckoutRoute,
  activateSubscriptionRoute,
  verifySubscriptionRoute,
  mySubscriptionRoute,
  manageSubscriptionRoute,
  userSubscriptionRoute,
  embeddedManagePageRoute,
  embeddedManageSubmitRoute,
] as const;
