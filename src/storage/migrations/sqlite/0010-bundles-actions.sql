-- 0010-bundles-actions (SQLite): bundles of JavaScript code and the custom actions that run their functions; names unique case-insensitively through name_key
CREATE TABLE bundles (
  name TEXT PRIMARY KEY,
  name_key TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL,
  source TEXT NOT NULL,
  exports TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  modified_at INTEGER NOT NULL
);

CREATE TABLE actions (
  name TEXT PRIMARY KEY,
  name_key TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL,
  bundle TEXT NOT NULL,
  function TEXT NOT NULL,
  role TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  modified_at INTEGER NOT NULL
);

CREATE INDEX actions_bundle ON actions (bundle);
