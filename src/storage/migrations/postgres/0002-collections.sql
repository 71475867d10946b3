-- 0002-collections (PostgreSQL): collections and their user properties; names unique case-insensitively through name_key
CREATE TABLE collections (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  modified_at BIGINT NOT NULL
);

CREATE TABLE collection_properties (
  id TEXT PRIMARY KEY,
  collection_id TEXT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  position INTEGER NOT NULL,
  data_type TEXT NOT NULL,
  description TEXT NOT NULL,
  is_encrypted SMALLINT NOT NULL,
  is_index SMALLINT NOT NULL,
  is_substring_index SMALLINT NOT NULL,
  is_nullable SMALLINT NOT NULL,
  is_unique SMALLINT NOT NULL,
  created_at BIGINT NOT NULL,
  modified_at BIGINT NOT NULL,
  UNIQUE (collection_id, name_key)
);
