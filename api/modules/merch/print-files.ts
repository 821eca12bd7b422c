/**
 * Print files: each order item's stored screenshot through the print pipeline of the buyer's
 * preview (print-render.ts: feathered, resampled with Lanczos-3 to fill the product's print area
 * for its size at 300 DPI as far as the screenshot's aspect ratio allows, fitted inside, never
 * stretched), as a PNG that says 300 DPI. Files are announced before they are written and
 * released in the transaction that records them on the item, so a crash leaves no orphan; an
 * item that already has its print file keeps it.
 */
import type { Kysely } from 'kysely';
import type { Catalogue } from '../../../shared/catalogue/parse.ts';
import { printAreaFor } from '../../../shared/catalogue/parse.ts';
import type { DB } from '../../platform/db/schema.ts';
import { PermanentJobError } from '../../platform/jobs/runner.ts';
import type { ObjectStorage } from '../../platform/storage/object-storage.ts';
import { newKey } from '../../platform/storage/object-storage.ts';
import type { PendingObjects, StoredFile } from '../../platform/storage/pending-objects.ts';
import { renderPrintFile } from './print-render.ts';
import { listOrderItemsForPrint, printFileKeyOf, setPrintFileKey } from './repository.ts';

export interface PrintFileDeps {
  db: Kysely<DB>;
  storage: ObjectStorage;
  pending: PendingObjects;
  catalogue: Catalogue;
}

export interface PrintedItem {
  id: string;
  position: number;
  sku: string;
  colour: string;
  size: string;
  quantity: number;
  unit_price_cents: number;
  size_surcharge_cents: number;
  print_file_key: string;
}

async function readAll(storage: ObjectStorage, file: StoredFile): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.read(file.bucket, file.key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Makes the print file of every item of the order that lacks one; answers all items with their files. */
export async function ensurePrintFiles(deps: PrintFileDeps, orderId: string): Promise<PrintedItem[]> {
  const items = await listOrderItemsForPrint(deps.db, orderId);
  const done: PrintedItem[] = [];
  for (const item of items) {
    if (item.print_file_key) {
      done.push({ ...item, print_file_key: item.print_file_key });
      continue;
    }
    if (!item.screenshot_key) throw new PermanentJobError(`The screenshot of item ${item.position + 1} no longer exists.`);
    const product = deps.catalogue.products.find((p) => p.sku === item.sku);
    if (!product) throw new PermanentJobError(`The product ${item.sku} is no longer in the catalogue.`);
    const screenshot = await readAll(deps.storage, { bucket: 'screenshots', key: item.screenshot_key });
    const { png } = await renderPrintFile(screenshot, printAreaFor(product, item.size));

    const file: StoredFile = { bucket: 'prints', key: newKey('png') };
    await deps.pending.announce([file]);
    let kept: string | null;
    try {
      await deps.storage.put(file.bucket, file.key, png);
      kept = await deps.db.transaction().execute(async (trx) => {
        if (!(await setPrintFileKey(trx, item.id, file.key))) return null;
        await deps.pending.release(trx, [file]);
        return file.key;
      });
    } catch (err) {
      await deps.pending.discard([file]).catch(() => {});
      throw err;
    }
    if (!kept) {
      // Another run made this item's file first: keep that one.
      await deps.pending.discard([file]);
      kept = (await printFileKeyOf(deps.db, item.id))!;
    }
    done.push({ ...item, print_file_key: kept });
  }
  return done;
}
