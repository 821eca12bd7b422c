-- Frames do not outlive their video. Deleting a video (by its creator, by an admin, or with the
-- creator's account) withdraws every merch product made from it: the product rows go, so no
-- product page and no checkout finds them, and with them their frames. A frame that an order not
-- yet sent to the print shop (pending or paid) was bought with is kept for that order, named on
-- its item, and never served: the media gate serves only frames a product on sale shows. Every
-- other frame becomes a pending object of an instance that never runs, so whichever server
-- sweeps next removes the file (the deleting server removes it at once), also after a crash.

-- The frame an item is printed from once its product is withdrawn; cleared when the order leaves
-- pending and paid (sent to the print shop, cancelled or refunded).
ALTER TABLE order_items ADD COLUMN withheld_frame_key text;
CREATE INDEX order_items_withheld_frame ON order_items (withheld_frame_key) WHERE withheld_frame_key IS NOT NULL;

CREATE FUNCTION withdraw_merch_products(product_ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- The orders still to be printed hold still while their frames are set aside, so none of them
  -- leaves pending or paid in between (release_withheld_frames would then find nothing to free).
  PERFORM 1 FROM orders o
  WHERE o.id IN (SELECT i.order_id FROM order_items i JOIN merch_screenshots s ON s.id = i.screenshot_id
                 WHERE s.merch_product_id = ANY(product_ids))
  ORDER BY o.id
  FOR SHARE;
  UPDATE order_items i SET withheld_frame_key = s.storage_key
  FROM merch_screenshots s, orders o
  WHERE s.id = i.screenshot_id AND o.id = i.order_id
    AND s.merch_product_id = ANY(product_ids) AND o.status IN ('pending', 'paid');
  INSERT INTO pending_objects (bucket, key, instance_id)
  SELECT 'screenshots', s.storage_key, 'withdrawn-merch' FROM merch_screenshots s
  WHERE s.merch_product_id = ANY(product_ids)
    AND NOT EXISTS (SELECT 1 FROM order_items i WHERE i.withheld_frame_key = s.storage_key)
  ON CONFLICT DO NOTHING;
  DELETE FROM merch_products WHERE id = ANY(product_ids);
END
$$;

CREATE FUNCTION withdraw_video_merch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM withdraw_merch_products(ARRAY(SELECT id FROM merch_products WHERE video_id = OLD.id));
  RETURN OLD;
END
$$;

-- Before the row goes, while its products still name it (a cascade from users fires it too).
CREATE TRIGGER videos_withdraw_merch BEFORE DELETE ON videos
  FOR EACH ROW EXECUTE FUNCTION withdraw_video_merch();

-- An order that leaves pending and paid needs its withheld frames no more: each one no other
-- order holds is handed to the sweep. One frame at a time under a lock of its own, so two orders
-- of the same frame leaving together cannot both see the other still holding it.
CREATE FUNCTION release_withheld_frames() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  k text;
BEGIN
  FOR k IN SELECT DISTINCT withheld_frame_key FROM order_items
           WHERE order_id = NEW.id AND withheld_frame_key IS NOT NULL ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(hashtext('withheld-frame:' || k));
    UPDATE order_items SET withheld_frame_key = NULL WHERE order_id = NEW.id AND withheld_frame_key = k;
    IF NOT EXISTS (SELECT 1 FROM order_items WHERE withheld_frame_key = k) THEN
      INSERT INTO pending_objects (bucket, key, instance_id) VALUES ('screenshots', k, 'withdrawn-merch')
      ON CONFLICT DO NOTHING;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;

CREATE TRIGGER orders_release_withheld_frames AFTER UPDATE OF status ON orders
  FOR EACH ROW WHEN (OLD.status IN ('pending', 'paid') AND NEW.status NOT IN ('pending', 'paid'))
  EXECUTE FUNCTION release_withheld_frames();

-- Products whose video was deleted before this rule are withdrawn now.
SELECT withdraw_merch_products(ARRAY(SELECT id FROM merch_products WHERE video_id IS NULL));
