-- 0009-substring-queue (SQLite): the deferred n-gram index is queued per write, not per
-- object. A bulk add of 1,000 objects wrote 1,000 queue rows (a random-key B-tree insert each);
-- now it writes one row listing the objects' ids (JSON array) and their count. Rows are keyed by
-- a random id per write, so an object written again is queued again in a new row, and the
-- indexer deletes exactly the rows it read. Rows already queued move over, one row per object.
CREATE TABLE substring_queue (
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  queued_at INTEGER NOT NULL,
  object_count INTEGER NOT NULL,
  object_ids TEXT NOT NULL,
  PRIMARY KEY (collection, id)
);

INSERT INTO substring_queue (collection, id, queued_at, object_count, object_ids)
  SELECT collection, 'migrated:' || object_id, queued_at, 1, json_array(object_id)
  FROM substring_pending;

DROP TABLE substring_pending;
