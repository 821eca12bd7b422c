/** Object storage: an S3-compatible service when S3_BUCKET is set, else files under dataDir/storage. */
import path from 'node:path';
import type { Config } from '../../platform/config/config.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import { LocalStorage } from './local-storage.ts';
import { S3Storage } from './s3-storage.ts';

/** Opens the configured storage; an S3 service that cannot be reached fails the start. */
export async function openStorage(config: Pick<Config, 's3' | 'dataDir'>): Promise<ObjectStorage> {
  if (config.s3) {
    const s3 = new S3Storage(config.s3);
    await s3.check();
    return s3;
  }
  return LocalStorage.open(path.join(config.dataDir, 'storage'));
}
