/**
 * Row types of the tables the migrations create, for Kysely. Keep in step with migrations/.
 * Timestamps come back as Date; bigint columns are parsed to number (amounts stay far below 2^53).
 */
import type { ColumnType, Generated, JSONColumnType } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T extends object | null> = JSONColumnType<T, string, string>;

export interface UsersTable {
  id: Generated<string>;
  email: string;
  email_verified: Generated<boolean>;
  username: string;
  display_name: string;
  profile_image_url: string | null;
  cover_image_url: string | null;
  bio: Generated<string>;
  role: Generated<'creator' | 'customer'>;
  is_admin: Generated<boolean>;
  status: Generated<'active' | 'suspended'>;
  password_hash: string | null;
  oidc_issuer: string | null;
  oidc_subject: string | null;
  total_earnings_cents: Generated<number>;
  /** May go below zero: a refund after a payout takes back what was already paid. */
  pending_payout_cents: Generated<number>;
  payout_enabled: Generated<boolean>;
  paypal_email: string | null;
  last_payout_date: Date | null;
  payout_threshold_cents: Generated<number>;
  tax_id: string | null;
  tax_info_verified: Generated<boolean>;
  preferred_payment_method: 'paypal' | 'ach' | 'stripe_connect' | null;
  /** Sealed (platform/crypto/sealed-values.ts, the user id as associated data); never the plain number. */
  ach_routing_number_encrypted: string | null;
  ach_routing_last4: string | null;
  ach_account_type: 'checking' | 'savings' | null;
  /** Sealed like the routing number. */
  ach_account_number_encrypted: string | null;
  ach_account_last4: string | null;
  ach_account_holder_name: string | null;
  bank_account_verified: Generated<boolean>;
  stripe_connect_account_id: string | null;
  stripe_connect_email: string | null;
  stripe_connect_status: 'pending' | 'active' | 'restricted' | 'disabled' | null;
  seed_key: string | null;
  auth_picture_url: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface SessionsTable {
  token_hash: string;
  user_id: string;
  created_at: CreatedAt;
  last_seen_at: UpdatedAt;
  expires_at: Date | string;
  user_agent: string | null;
  ip: string | null;
}

export type VerificationStatus = 'verified_via_supabase_auth' | 'pending' | 'approved' | 'rejected';

export interface VideosTable {
  id: Generated<string>;
  user_id: string;
  title: string;
  description: Generated<string>;
  category: string | null;
  category_id: Generated<number>;
  video_key: string;
  thumbnail_key: string | null;
  poster_key: string | null;
  content_type: 'video/mp4' | 'video/webm';
  size_bytes: number;
  duration_ms: number | null;
  width: number | null;
  height: number | null;
  view_count: Generated<number>;
  verification_status: Generated<VerificationStatus>;
  seed_key: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface VideoViewsTable {
  video_id: string;
  viewer_key: string;
  created_at: CreatedAt;
}

export interface UserSubscriptionsTable {
  id: Generated<string>;
  user_id: string;
  tier: Generated<'free' | 'pro'>;
  status: Generated<'trialing' | 'active' | 'past_due' | 'canceled' | 'incomplete' | 'pending_approval'>;
  is_third_tier: Generated<boolean>;
  trial_end: Date | null;
  current_period_start: Date | null;
  current_period_end: Date | null;
  stripe_subscription_id: string | null;
  stripe_customer_id: string | null;
  /** Stripe's own status word (0010_subscription_state.sql); null until an event set the row. */
  stripe_status: 'trialing' | 'active' | 'past_due' | 'canceled' | 'unpaid' | 'incomplete' | 'incomplete_expired' | 'paused' | null;
  cancel_at_period_end: Generated<boolean>;
  /** The ordering watermark (subscriptions/rules.ts encodeOrderKey), COLLATE "C". */
  event_order: string | null;
  subscription_created_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** Subscription checkouts already processed, each its own user's (0010_subscription_state.sql). */
export interface SubscriptionCheckoutSessionsTable {
  session_id: string;
  user_id: string;
  stripe_subscription_id: string | null;
  stripe_customer_id: string | null;
  processed_at: CreatedAt;
}

/**
 * Approval links sent for email updates (0011_subscription_approvals.sql): the token is signed,
 * never stored; expires_at and used_at are on the app's clock.
 */
export interface SubscriptionApprovalsTable {
  id: string;
  /** Lower-cased. */
  email: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  used_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  created_at: CreatedAt;
}

/** Addresses approved for email updates, each once (0011_subscription_approvals.sql). */
export interface SubscriptionApprovedAddressesTable {
  /** Lower-cased. */
  email: string;
  approved_at: ColumnType<Date, Date | string, Date | string>;
}

export interface AdminLogsTable {
  id: Generated<number>;
  admin_user_id: string | null;
  action_type: string;
  target_type: 'user' | 'video' | 'subscription' | 'setting' | 'order' | 'payout';
  target_id: string;
  details: Json<Record<string, unknown>>;
  created_at: CreatedAt;
}

export interface AdminSettingsTable {
  key: string;
  value: Json<Record<string, unknown>>;
  updated_by: string | null;
  updated_at: UpdatedAt;
}

/** The dashboard's counts of users by status and videos by verification status, kept by triggers (0016); a figure is the sum over its slots. */
export interface RowCountsTable {
  table_name: 'users' | 'videos';
  status: string;
  slot: number;
  n: number;
}

export interface PaymentMethodOptionsTable {
  method_name: 'paypal' | 'ach' | 'stripe_connect';
  display_name: string;
  description: string;
  fees_basis_points: number;
  fees_fixed_cents: number;
  processing_time_days: number;
  min_payout_cents: number;
  is_available: Generated<boolean>;
  countries: string[] | null;
  sort_order: Generated<number>;
}

export interface ShippingBucketsTable {
  bucket: string;
  first_item_cents: number;
  additional_item_cents: number;
  packs_separately: boolean;
}

export interface PrintTargetsTable {
  target: string;
  min_width_px: number;
  min_height_px: number;
}

export interface StoredArea {
  widthIn: number;
  heightIn: number;
}

export interface StoredPrintAreas {
  front: StoredArea;
  bySize: Record<string, StoredArea>;
  wrap: StoredArea | null;
  back: StoredArea | null;
}

export interface CatalogueProductsTable {
  sku: string;
  name: string;
  category: string;
  price_cents: number;
  base_cost_cents: number;
  sizes: string[];
  size_surcharges_cents: Json<Record<string, number>>;
  colours: string[];
  handle_colours: string[];
  print_area_text: string;
  print_areas: Json<StoredPrintAreas>;
  pod_catalog_id: number | null;
  shipping_bucket: string;
  sort_order: Generated<number>;
  active: Generated<boolean>;
  updated_at: UpdatedAt;
}

export interface MerchProductsTable {
  id: Generated<string>;
  video_id: string | null;
  creator_id: string | null;
  created_by: string | null;
  category: string | null;
  video_title: Generated<string>;
  creator_name: Generated<string>;
  screenshot_timestamp_ms: number | null;
  created_at: CreatedAt;
}

export interface MerchScreenshotsTable {
  id: Generated<string>;
  merch_product_id: string;
  position: number;
  kind: 'thumbnail' | 'capture' | 'crop';
  storage_key: string;
  content_type: 'image/jpeg' | 'image/png' | 'image/webp';
  width: number;
  height: number;
  size_bytes: number;
  created_at: CreatedAt;
}

export type OrderStatus =
  | 'pending'
  | 'paid'
  | 'submitted'
  | 'in_production'
  | 'shipped'
  | 'delivered'
  | 'cancelled'
  | 'refunded';

export interface OrdersTable {
  id: Generated<string>;
  status: Generated<OrderStatus>;
  customer_user_id: string | null;
  customer_email: string | null;
  shipping_zip: string;
  shipping_country: 'US' | 'CA' | 'GB' | 'AU' | 'DE';
  shipping_name: string | null;
  shipping_address: Json<Record<string, string>> | null;
  currency: Generated<'USD'>;
  subtotal_cents: number;
  shipping_cents: number;
  total_cents: number;
  sms_consent: Generated<boolean>;
  idempotency_key: string | null;
  /** Digest of what the key was first used with (checkout/service.ts checkoutFingerprint); null for older orders. */
  idempotency_fingerprint: string | null;
  payment_provider: 'stripe' | 'embedded' | null;
  payment_session_id: string | null;
  payment_intent_id: string | null;
  fulfilment_provider: 'printful' | 'embedded' | null;
  fulfilment_order_id: string | null;
  tracking_url: string | null;
  paid_at: Date | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  shipping_method: Generated<string>;
  tracking_number: string | null;
  refunded_at: Date | null;
  /** When an admin last sent a refund the payment provider had not confirmed (0014_admin_orders.sql). */
  refund_requested_at: Date | null;
}

export interface OrderItemsTable {
  id: Generated<string>;
  order_id: string;
  position: number;
  sku: string;
  product_name: string;
  merch_product_id: string | null;
  screenshot_id: string | null;
  video_id: string | null;
  creator_id: string | null;
  colour: string;
  handle_colour: string | null;
  size: string;
  quantity: number;
  unit_price_cents: number;
  size_surcharge_cents: Generated<number>;
  base_cost_cents: number;
  line_total_cents: number;
  print_file_key: string | null;
  /** The frame a paid order keeps once its product is withdrawn (0020_withdrawn_merch.sql): set and cleared by the database only. */
  withheld_frame_key: ColumnType<string | null, never, never>;
}

export interface OrderStatusHistoryTable {
  id: Generated<number>;
  order_id: string;
  from_status: OrderStatus | null;
  to_status: OrderStatus;
  reason: Generated<string>;
  event_id: string | null;
  created_at: CreatedAt;
}

export interface PayoutsTable {
  id: Generated<string>;
  user_id: string | null;
  amount_cents: number;
  fee_cents: Generated<number>;
  method: 'paypal' | 'ach' | 'stripe_connect';
  period: Date | string;
  payout_date: Date | string;
  status: Generated<'pending' | 'processing' | 'paid' | 'failed'>;
  provider_reference: string | null;
  /** Why it failed, digit runs masked (0015_admin_payouts_subscriptions.sql); null unless failed. */
  failure_reason: string | null;
  /** How many times it was sent: an admin's retry sends it again under a new idempotency key. */
  attempt: Generated<number>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface EarningsTable {
  id: Generated<string>;
  user_id: string | null;
  order_item_id: string | null;
  kind: Generated<'sale' | 'reversal'>;
  amount_cents: number;
  margin_cents: number;
  creator_share_cents: number;
  source: Generated<string>;
  payout_id: string | null;
  created_at: CreatedAt;
}

export interface ProcessedWebhookEventsTable {
  provider: 'stripe' | 'printful';
  event_id: string;
  event_type: string;
  processed_at: CreatedAt;
}

/** One run of the payment reconciliation (checkout/reconcile.ts). */
export interface PaymentReconciliationsTable {
  id: Generated<number>;
  ran_at: CreatedAt;
  since: Date;
  provider: string;
  checked: number;
  in_order: number;
  repaired: Json<Array<{ session_id: string; order_id: string; effect: string }>>;
  refunded: Json<Array<{ session_id: string; order_id: string | null; why: string }>>;
}

export interface EmailOutboxTable {
  id: Generated<string>;
  to_address: string;
  template: string;
  subject: string;
  payload: Json<Record<string, unknown>>;
  status: Generated<'pending' | 'sending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  last_error: string | null;
  dedupe_key: string | null;
  send_after: ColumnType<Date, Date | string | undefined, Date | string>;
  sent_at: Date | null;
  created_at: CreatedAt;
}

export interface JobsTable {
  id: Generated<string>;
  kind: string;
  payload: Json<Record<string, unknown>>;
  status: Generated<'queued' | 'running' | 'done' | 'failed'>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_after: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: Date | null;
  locked_by: string | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface AuthFlowsTable {
  state: string;
  binding_hash: string;
  nonce: string;
  code_verifier: string;
  return_path: string;
  created_at: CreatedAt;
  expires_at: Date | string;
}

export interface IdpAccountsTable {
  subject: string;
  email: string;
  name: string;
  created_at: CreatedAt;
}

export interface IdpRecordsTable {
  model: string;
  id: string;
  payload: Json<Record<string, unknown>>;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  consumed_at: Date | null;
  expires_at: Date | null;
}

export interface ServerInstancesTable {
  id: string;
  started_at: CreatedAt;
  heartbeat_at: UpdatedAt;
}

export interface PendingObjectsTable {
  bucket: 'videos' | 'thumbnails' | 'profile-images' | 'screenshots' | 'prints';
  key: string;
  instance_id: string;
  created_at: CreatedAt;
}

export interface SchemaMigrationsTable {
  version: number;
  name: string;
  checksum: string;
  applied_at: CreatedAt;
}

export interface AppSecretsTable {
  name: string;
  value: string;
  created_at: CreatedAt;
}

export interface EmbeddedPaymentSessionsTable {
  id: string;
  order_id: string;
  status: Generated<'open' | 'complete' | 'expired'>;
  payment_status: Generated<'unpaid' | 'paid' | 'refunded'>;
  amount_total: number;
  currency: Generated<string>;
  line_items: Json<Record<string, unknown>[]>;
  metadata: Json<Record<string, string>>;
  customer_email: string | null;
  payment_intent_id: string | null;
  success_url: string;
  cancel_url: string;
  declined_attempts: Generated<number>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  /** The name and address given on the payment page, in Stripe's shipping_details shape. */
  shipping_details: Json<Record<string, unknown>> | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface EmbeddedPaymentEventsTable {
  id: string;
  type: string;
  payload: Json<Record<string, unknown>>;
  delivered_at: Date | null;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: string | null;
  created_at: CreatedAt;
}

export type EmbeddedPodStatus = 'pending' | 'inprocess' | 'fulfilled' | 'delivered' | 'canceled';

export interface EmbeddedPodOrdersTable {
  id: string;
  external_id: string;
  status: Generated<EmbeddedPodStatus>;
  recipient: Json<Record<string, unknown>>;
  items: Json<Record<string, unknown>[]>;
  tracking_number: string | null;
  tracking_url: string | null;
  next_step_at: ColumnType<Date, Date | string, Date | string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** The embedded payout provider's payouts (integrations/payouts): a summary of the destination, never a bank number. */
export interface EmbeddedPayoutsTable {
  reference: string;
  method: 'paypal' | 'stripe_connect' | 'ach';
  idempotency_key: string;
  payout_id: string;
  user_id: string;
  amount_cents: number;
  currency: Generated<'USD'>;
  destination: string;
  outcome: 'paid' | 'failed';
  failure_reason: string | null;
  status: Generated<'processing' | 'paid' | 'failed'>;
  settle_at: ColumnType<Date, Date | string, Date | string>;
  settled_at: Date | null;
  created_at: CreatedAt;
}

/** Events the embedded payout provider owes the app's webhooks, in the format of the service it stands in for. */
export interface EmbeddedPayoutEventsTable {
  id: string;
  format: 'paypal' | 'stripe' | 'ach';
  type: string;
  payload: Json<Record<string, unknown>>;
  delivered_at: Date | null;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  last_error: string | null;
  created_at: CreatedAt;
}

export interface EmbeddedConnectAccountsTable {
  id: string;
  user_id: string;
  email: string;
  status: Generated<'pending' | 'active' | 'restricted'>;
  link_token: string;
  return_url: string;
  refresh_url: string;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

/** ACH entries of a period's NACHA file; the receiver's numbers sealed (the trace number as associated data). */
export interface NachaEntriesTable {
  trace_number: string;
  period: ColumnType<Date, Date | string, Date | string>;
  payout_id: string;
  user_id: string;
  idempotency_key: string;
  transaction_code: 22 | 32;
  amount_cents: number;
  receiver_name: string;
  destination_sealed: string;
  account_last4: string;
  status: Generated<'processing' | 'paid'>;
  created_at: CreatedAt;
  confirmed_at: Date | null;
}

/** Times on the app's clock, written by the embedded provider (0009_embedded_subscriptions.sql). */
type ClockTime = ColumnType<Date, Date | string, Date | string>;

export interface EmbeddedCustomersTable {
  id: string;
  email: string | null;
  metadata: Json<Record<string, string>>;
  payment_method_id: string | null;
  card_brand: string | null;
  card_last4: string | null;
  card_exp_month: number | null;
  card_exp_year: number | null;
  /** The test card attaches but every charge fails (4000 0000 0000 0341). */
  card_charges_fail: Generated<boolean>;
  created: ClockTime;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface EmbeddedSubscriptionSessionsTable {
  id: string;
  idempotency_key: string;
  status: Generated<'open' | 'complete' | 'expired'>;
  user_id: string;
  customer_id: string | null;
  customer_email: string | null;
  subscription_id: string | null;
  product_name: string;
  unit_amount: number;
  currency: Generated<string>;
  trial_days: number;
  success_url: string;
  cancel_url: string;
  declined_attempts: Generated<number>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  created: ClockTime;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type EmbeddedSubscriptionStatus = 'trialing' | 'active' | 'past_due' | 'canceled';

export interface EmbeddedSubscriptionsTable {
  id: string;
  customer_id: string;
  status: EmbeddedSubscriptionStatus;
  item_id: string;
  price_id: string;
  product_id: string;
  product_name: string;
  unit_amount: number;
  currency: Generated<string>;
  metadata: Json<Record<string, string>>;
  billing_cycle_anchor: ClockTime;
  cycle: Generated<number>;
  trial_start: ClockTime | null;
  trial_end: ClockTime | null;
  current_period_start: ClockTime;
  current_period_end: ClockTime;
  cancel_at_period_end: Generated<boolean>;
  canceled_at: ClockTime | null;
  ended_at: ClockTime | null;
  cancellation_reason: string | null;
  latest_invoice_id: string | null;
  next_action_at: ClockTime | null;
  last_event_created: Generated<number>;
  created: ClockTime;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface EmbeddedInvoicesTable {
  id: string;
  subscription_id: string;
  customer_id: string;
  status: 'open' | 'paid' | 'void' | 'uncollectible';
  billing_reason: 'subscription_create' | 'subscription_cycle';
  amount_due: number;
  amount_paid: Generated<number>;
  currency: Generated<string>;
  attempt_count: Generated<number>;
  next_payment_attempt: ClockTime | null;
  period_start: ClockTime;
  period_end: ClockTime;
  line_period_start: ClockTime;
  line_period_end: ClockTime;
  paid_at: ClockTime | null;
  created: ClockTime;
  created_at: CreatedAt;
}

export interface EmbeddedPortalSessionsTable {
  token: string;
  id: string;
  customer_id: string;
  return_url: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
  created_at: CreatedAt;
}

export interface RateLimitHitsTable {
  id: Generated<string>;
  bucket: string;
  key: string;
  at: Date;
  expires_at: Date;
}

export interface LeasesTable {
  key: string;
  holder: string;
  token: string;
  expires_at: Date;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  videos: VideosTable;
  video_views: VideoViewsTable;
  user_subscriptions: UserSubscriptionsTable;
  subscription_checkout_sessions: SubscriptionCheckoutSessionsTable;
  subscription_approvals: SubscriptionApprovalsTable;
  subscription_approved_addresses: SubscriptionApprovedAddressesTable;
  admin_logs: AdminLogsTable;
  admin_settings: AdminSettingsTable;
  row_counts: RowCountsTable;
  payment_method_options: PaymentMethodOptionsTable;
  shipping_buckets: ShippingBucketsTable;
  print_targets: PrintTargetsTable;
  catalogue_products: CatalogueProductsTable;
  merch_products: MerchProductsTable;
  merch_screenshots: MerchScreenshotsTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  order_status_history: OrderStatusHistoryTable;
  payouts: PayoutsTable;
  earnings: EarningsTable;
  processed_webhook_events: ProcessedWebhookEventsTable;
  payment_reconciliations: PaymentReconciliationsTable;
  email_outbox: EmailOutboxTable;
  jobs: JobsTable;
  auth_flows: AuthFlowsTable;
  idp_accounts: IdpAccountsTable;
  idp_records: IdpRecordsTable;
  server_instances: ServerInstancesTable;
  pending_objects: PendingObjectsTable;
  schema_migrations: SchemaMigrationsTable;
  app_secrets: AppSecretsTable;
  embedded_payment_sessions: EmbeddedPaymentSessionsTable;
  embedded_payment_events: EmbeddedPaymentEventsTable;
  embedded_pod_orders: EmbeddedPodOrdersTable;
  embedded_payouts: EmbeddedPayoutsTable;
  embedded_payout_events: EmbeddedPayoutEventsTable;
  embedded_connect_accounts: EmbeddedConnectAccountsTable;
  nacha_entries: NachaEntriesTable;
  embedded_customers: EmbeddedCustomersTable;
  embedded_subscription_sessions: EmbeddedSubscriptionSessionsTable;
  embedded_subscriptions: EmbeddedSubscriptionsTable;
  embedded_invoices: EmbeddedInvoicesTable;
  embedded_portal_sessions: EmbeddedPortalSessionsTable;
  rate_limit_hits: RateLimitHitsTable;
  leases: LeasesTable;
}
