-- 0007-tokens (postgres): tokens, their tags, claimed IDs, pci reuse fingerprints, transaction IDs
CREATE TABLE tokens (
  row_id TEXT PRIMARY KEY,
  collection TEXT NOT NULL,
  token_id TEXT NOT NULL,
  type TEXT NOT NULL,
  scope TEXT NOT NULL,
  props TEXT NOT NULL,
  object_id TEXT,
  tenant_id TEXT,
  sealed BYTEA,
  fingerprint BYTEA,
  tags TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  modified_at BIGINT NOT NULL,
  expires_at BIGINT,
  fptemplate TEXT,
  fpprops TEXT,
  transaction_id TEXT
);
CREATE INDEX tokens_by_id ON tokens (collection, token_id);
CREATE INDEX tokens_by_object ON tokens (collection, object_id) WHERE object_id IS NOT NULL;
CREATE INDEX tokens_by_transaction ON tokens (collection, transaction_id) WHERE transaction_id IS NOT NULL;
CREATE INDEX tokens_expiry ON tokens (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE token_tags (
  collection TEXT NOT NULL,
  tag TEXT NOT NULL,
  row_id TEXT NOT NULL,
  PRIMARY KEY (collection, tag, row_id)
);
CREATE INDEX token_tags_row ON token_tags (row_id);

CREATE TABLE token_ids (
  collection TEXT NOT NULL,
  token_id TEXT NOT NULL,
  type TEXT NOT NULL,
  PRIMARY KEY (collection, token_id)
);

CREATE TABLE token_reuse (
  namespace TEXT NOT NULL,
  fingerprint BYTEA NOT NULL,
  token_id TEXT NOT NULL,
  PRIMARY KEY (namespace, fingerprint)
);
CREATE INDEX token_reuse_id ON token_reuse (token_id);

CREATE TABLE transaction_ids (
  collection TEXT NOT NULL,
  transaction_id TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (collection, transaction_id)
);
