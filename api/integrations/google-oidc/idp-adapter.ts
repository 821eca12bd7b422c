/** Storage for the embedded identity provider's records (oidc-provider's adapter interface). */
import type { Kysely } from 'kysely';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { DB } from '../../platform/db/schema.ts';
import * as repo from './repository.ts';

export function databaseAdapter(db: Kysely<DB>) {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const row = {
        payload: JSON.stringify(payload),
        grant_id: payload.grantId ?? null,
        uid: payload.uid ?? null,
        user_code: payload.userCode ?? null,
        expires_at: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await repo.upsertIdpRecord(db, this.model, id, row);
      if (Math.random() < 0.01) await repo.deleteExpiredIdpRecords(db, new Date());
    }

    async #findBy(column: 'id' | 'uid' | 'user_code', value: string): Promise<AdapterPayload | undefined> {
      const row = await repo.findIdpRecord(db, this.model, column, value);
      if (!row || (row.expires_at && row.expires_at.getTime() <= Date.now())) return undefined;
      const payload = row.payload as unknown as AdapterPayload;
      return row.consumed_at ? { ...payload, consumed: Math.floor(row.consumed_at.getTime() / 1000) } : payload;
    }

    find(id: string) {
      return this.#findBy('id', id);
    }

    findByUid(uid: string) {
      return this.#findBy('uid', uid);
    }

    findByUserCode(userCode: string) {
      return this.#findBy('user_code', userCode);
    }

    async consume(id: string): Promise<void> {
      await repo.consumeIdpRecord(db, this.model, id);
    }

    async destroy(id: string): Promise<void> {
      await repo.deleteIdpRecord(db, this.model, id);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await repo.deleteIdpGrant(db, grantId);
    }
  };
}
