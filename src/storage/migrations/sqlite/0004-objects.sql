-- 0004-objects (SQLite): objects, blind-index entries, unique claims, substring n-grams
CREATE TABLE objects (
  collection TEXT NOT NULL,
  id TEXT NOT NULL,
  tenant_id TEXT,
  owner_id TEXT,
  owner_collection TEXT,
  created_at INTEGER NOT NULL,
  modified_at INTEGER NOT NULL,
  expires_at INTEGER,
  version INTEGER NOT NULL,
  fields TEXT NOT NULL,
  sealed TEXT NOT NULL,
  digests TEXT NOT NULL,
  PRIMARY KEY (collection, id)
);
CREATE INDEX objects_page ON objects (collection, created_at, id);
CREATE INDEX objects_expiry ON objects (expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX objects_owner ON objects (owner_collection, owner_id) WHERE owner_id IS NOT NULL;

CREATE TABLE object_index (
  collection TEXT NOT NULL,
  property TEXT NOT NULL,
  digest BLOB NOT NULL,
  object_id TEXT NOT NULL,
  PRIMARY KEY (collection, property, digest, object_id)
) WITHOUT ROWID;

CREATE TABLE object_unique (
  collection TEXT NOT NULL,
  property TEXT NOT NULL,
  digest BLOB NOT NULL,
  object_id TEXT NOT NULL,
  PRIMARY KEY (collection, property, digest)
) WITHOUT ROWID;

CREATE TABLE object_ngrams (
  collection TEXT NOT NULL,
  property TEXT NOT NULL,
  gram BLOB NOT NULL,
  object_id TEXT NOT NULL,
  PRIMARY KEY (collection, property, gram, object_id)
) WITHOUT ROWID;
CREATE INDEX object_ngrams_object ON object_ngrams (collection, object_id);

CREATE TABLE substring_pending (
  collection TEXT NOT NULL,
  object_id TEXT NOT NULL,
  queued_at INTEGER NOT NULL,
  PRIMARY KEY (collection, object_id)
) WITHOUT ROWID;
