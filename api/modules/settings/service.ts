/**
 * The typed system settings: each key has a type, a range and a default (shared/schemas/moderation.ts).
 * A value is checked on save with that key's own message; a stored value that no longer passes
 * (written by hand, say) reads as the default, so a reader always gets a value of the right type.
 * Every save is logged in the admin log in the transaction that makes it.
 */
import type { Kysely } from 'kysely';
import {
  MAINTENANCE_BANNER_MAX_CHARS,
  PAYOUT_THRESHOLD_SETTING_MAX_CENTS,
  PAYOUT_THRESHOLD_SETTING_MIN_CENTS,
  SETTING_DEFAULTS,
  SETTING_KEYS,
  SETTINGS_MESSAGES,
  type SettingKey,
  type SystemSettings,
} from '../../../shared/schemas/moderation.ts';
import type { DB } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/http/errors.ts';
import { recordAdminAction } from '../admin/index.ts';
import * as repo from './repository.ts';

export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

type Check<K extends SettingKey> = (value: unknown) => SystemSettings[K] | undefined;

const CHECKS: { [K in SettingKey]: Check<K> } = {
  moderation_required: (v) => (typeof v === 'boolean' ? v : undefined),
  payout_threshold_default_cents: (v) =>
    typeof v === 'number' && Number.isInteger(v) && v >= PAYOUT_THRESHOLD_SETTING_MIN_CENTS && v <= PAYOUT_THRESHOLD_SETTING_MAX_CENTS ? v : undefined,
  // Counted in characters as a person reads them (code points), trimmed: blank is none.
  maintenance_banner: (v) => (typeof v === 'string' && [...v.trim()].length <= MAINTENANCE_BANNER_MAX_CHARS ? v.trim() : undefined),
};

const MESSAGES: Record<SettingKey, string> = {
  moderation_required: SETTINGS_MESSAGES.moderationRequired,
  payout_threshold_default_cents: SETTINGS_MESSAGES.payoutThreshold,
  maintenance_banner: SETTINGS_MESSAGES.maintenanceBanner,
};

function checked<K extends SettingKey>(key: K, value: unknown): SystemSettings[K] | undefined {
  return (CHECKS[key] as Check<K>)(value);
}

/** A value for the key, or a 400 with the key's message. */
export function validateSetting<K extends SettingKey>(key: K, value: unknown): SystemSettings[K] {
  const ok = checked(key, value);
  if (ok === undefined) throw AppError.badRequest(MESSAGES[key]);
  return ok;
}

function settingsFrom(stored: Map<string, unknown>): SystemSettings {
  const out = { ...SETTING_DEFAULTS } as Record<SettingKey, unknown>;
  for (const key of SETTING_KEYS) {
    const value = stored.has(key) ? checked(key, stored.get(key)) : undefined;
    if (value !== undefined) out[key] = value;
  }
  return out as unknown as SystemSettings;
}

/** Every setting, stored or default. */
export async function readSystemSettings(db: Kysely<DB>): Promise<SystemSettings> {
  return settingsFrom(await repo.readSettingValues(db, SETTING_KEYS));
}

/** One setting, stored or default. */
export async function readSetting<K extends SettingKey>(db: Kysely<DB>, key: K): Promise<SystemSettings[K]> {
  return (await readSystemSettings(db))[key];
}

/** Whether new uploads wait for an admin's approval. */
export function moderationRequired(db: Kysely<DB>): Promise<boolean> {
  return readSetting(db, 'moderation_required');
}

/** The banner every page shows, or null for none. */
export async function maintenanceBanner(db: Kysely<DB>): Promise<string | null> {
  return (await readSetting(db, 'maintenance_banner')) || null;
}

/** Saves one setting (404 for a key that is none, 400 for a wrong value) and logs the change; answers every setting. */
export async function saveSetting(db: Kysely<DB>, adminUserId: string, key: string, value: unknown): Promise<SystemSettings> {
  if (!isSettingKey(key)) throw AppError.notFound(SETTINGS_MESSAGES.unknownKey(key));
  const next = validateSetting(key, value);
  await db.transaction().execute(async (trx) => {
    const stored = await repo.lockSettingValue(trx, key);
    const old = stored === undefined ? SETTING_DEFAULTS[key] : (checked(key, stored) ?? SETTING_DEFAULTS[key]);
    await repo.writeSettingValue(trx, key, next, adminUserId);
    await recordAdminAction(trx, { adminUserId, actionType: 'update_setting', targetType: 'setting', targetId: key, details: { old, new: next } });
  });
  return readSystemSettings(db);
}
