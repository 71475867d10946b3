-- 0011-data-types (PostgreSQL): custom data types built on a built-in base type, with bundle functions as validator, normalizer and transformers; names unique case-insensitively through name_key
CREATE TABLE data_types (
  name TEXT PRIMARY KEY,
  name_key TEXT NOT NULL UNIQUE,
  base_type_name TEXT NOT NULL,
  description TEXT NOT NULL,
  validator TEXT,
  normalizer TEXT,
  transformers TEXT NOT NULL,
  default_transformer TEXT,
  created_at BIGINT NOT NULL,
  modified_at BIGINT NOT NULL
);
