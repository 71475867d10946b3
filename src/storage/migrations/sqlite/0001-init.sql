-- 0001-init (SQLite): foundation tables: metadata, audit, IAM state, confvars, workers, keys, leases
CREATE TABLE vault_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE audit_events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id TEXT NOT NULL,
  time INTEGER NOT NULL,
  request_id TEXT NOT NULL,
  username TEXT NOT NULL,
  operation TEXT NOT NULL,
  collection TEXT,
  outcome TEXT NOT NULL,
  status INTEGER NOT NULL,
  record TEXT NOT NULL
);
CREATE INDEX audit_events_time ON audit_events (time);

CREATE TABLE iam_config (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  toml TEXT NOT NULL,
  version INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  username TEXT PRIMARY KEY,
  key_hash BLOB NOT NULL,
  expires_at INTEGER,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX api_keys_hash ON api_keys (key_hash);

CREATE TABLE confvars (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE workers (
  worker_id TEXT PRIMARY KEY,
  generation_number INTEGER NOT NULL,
  generation_checked_at INTEGER NOT NULL,
  refresh_interval_seconds INTEGER NOT NULL,
  priority INTEGER NOT NULL,
  component TEXT NOT NULL,
  heartbeat_at INTEGER NOT NULL
);

CREATE TABLE data_keys (
  purpose TEXT NOT NULL,
  version INTEGER NOT NULL,
  wrapped BLOB NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (purpose, version)
);

CREATE TABLE leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT ''
);
