-- Files being written to storage before the row that owns them is committed. A row here is
-- removed in the same transaction that commits the owning row; whatever a crashed process
-- leaves behind is deleted, file and row, by the sweep.
CREATE TABLE server_instances (
  id text PRIMARY KEY CHECK (id ~ '^[a-z0-9-]{8,64}$'),
  started_at timestamptz NOT NULL DEFAULT now(),
  heartbeat_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE pending_objects (
  bucket text NOT NULL CHECK (bucket IN ('videos', 'thumbnails', 'profile-images', 'screenshots', 'prints')),
  key text NOT NULL,
  instance_id text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (bucket, key)
);
CREATE INDEX pending_objects_instance ON pending_objects (instance_id);
