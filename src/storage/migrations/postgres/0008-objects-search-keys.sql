-- 0008-objects-search-keys (PostgreSQL): the objects' primary key also carries the columns a search
-- filters and orders on, so probing it with the ids an index condition selects (repos/objects.ts)
-- is an index-only scan where the table's pages are all-visible: no heap page per candidate.
-- Same key, same uniqueness and ON CONFLICT target; one index rebuild.
ALTER TABLE objects
  DROP CONSTRAINT objects_pkey,
  ADD CONSTRAINT objects_pkey PRIMARY KEY (collection, id) INCLUDE (created_at, expires_at, tenant_id);
