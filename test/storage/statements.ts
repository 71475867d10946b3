// test/storage/statements.ts: the SQL each engine runs for the hot statements, as statements.test.ts expects it
//
// Written out in full, as Kysely's own tests do: a change to what an engine is sent (a dialect
// object, an inserter, a search plan) shows here as a diff to review. Bytes are shown as x'hex'.

type Statement = Readonly<{ sql: string; parameters: readonly unknown[] }>
type Expected = Readonly<Record<string, readonly Statement[]>>

export const HOT_STATEMENTS = {
  sqlite: {
    findCredential: [
      {
        sql: 'select k."username", k."key_hash", k."expires_at", k."created_at", (select "value" from "vault_meta" where "key" = ?) as "meta" from (select 1 as "one") as "one" left join "api_keys" as k on k."key_hash" = ?',
        parameters: ['admin_key', "x'01010101'"],
      },
    ],
    metaGet: [
      {
        sql: 'select "value" from "vault_meta" where "key" = ?',
        parameters: ['vault_id'],
      },
    ],
    tokenInsert: [
      {
        sql: '/* prepared */ INSERT INTO tokens (row_id, collection, token_id, type, scope, props, object_id, tenant_id, sealed, fingerprint, tags, created_at, modified_at, expires_at, fptemplate, fpprops, transaction_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ',
        parameters: [
          'r1',
          'cards',
          't1',
          'randomized',
          '',
          '["card"]',
          null,
          null,
          "x'09090909'",
          null,
          '["a","b"]',
          1700000000000000,
          1700000000000000,
          null,
          null,
          null,
          null,
        ],
      },
      {
        sql: '/* prepared */ INSERT INTO token_tags (collection, tag, row_id) VALUES (?, ?, ?), (?, ?, ?) ',
        parameters: ['cards', 'a', 'r1', 'cards', 'b', 'r1'],
      },
    ],
    claimIds: [
      {
        sql: '/* prepared */ INSERT INTO token_ids (collection, token_id, type) VALUES (?, ?, ?) ON CONFLICT DO NOTHING RETURNING token_id',
        parameters: ['cards', 't2', 'randomized'],
      },
    ],
    auditInsert: [
      {
        sql: '/* prepared */ INSERT INTO audit_events (event_id, time, request_id, username, operation, collection, outcome, status, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ',
        parameters: [
          'e1',
          1700000000000000,
          'q1',
          'Admin',
          'tokenize',
          'cards',
          'success',
          200,
          '{}',
        ],
      },
    ],
    objectsInsert: [
      {
        sql: '/* prepared */ INSERT INTO objects (collection, id, tenant_id, owner_id, owner_collection, created_at, modified_at, expires_at, version, fields, sealed, digests) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ',
        parameters: [
          'people',
          'n1',
          null,
          null,
          null,
          1700000000000005,
          1700000000000005,
          null,
          1,
          '{}',
          '{}',
          '{}',
          'people',
          'n2',
          null,
          null,
          null,
          1700000000000006,
          1700000000000006,
          null,
          1,
          '{}',
          '{}',
          '{}',
        ],
      },
    ],
    entriesInsert: [
      {
        sql: '/* prepared */ INSERT INTO object_index (collection, property, digest, object_id) VALUES (?, ?, ?, ?) ',
        parameters: ['people', 'email', "x'02020202'", 'o1'],
      },
      {
        sql: '/* prepared */ INSERT INTO object_unique (collection, property, digest, object_id) VALUES (?, ?, ?, ?) ',
        parameters: ['people', 'ssn', "x'03030303'", 'o1'],
      },
    ],
    searchDigests: [
      {
        sql: 'select "object_id" from "object_index" where "collection" = ? and "property" = ? and "digest" in (?)',
        parameters: ['people', 'email', "x'01010101'"],
      },
      {
        sql: 'select "objects".* from "objects" where "objects"."collection" = ? and ("objects"."expires_at" is null or "objects"."expires_at" > ?) and "objects"."id" in (?)',
        parameters: ['people', 1700000000000100, 'o1'],
      },
    ],
    searchPlain: [
      {
        sql: 'select "objects"."collection", "objects"."id", "objects"."tenant_id", "objects"."owner_id", "objects"."owner_collection", "objects"."created_at", "objects"."modified_at", "objects"."expires_at", "objects"."version", "objects"."fields", "objects"."sealed", "objects"."digests" from "objects" where "objects"."collection" = ? and ("objects"."expires_at" is null or "objects"."expires_at" > ?) and (objects.fields -> ?) in (?) order by "objects"."created_at", "objects"."id" limit ?',
        parameters: ['people', 1700000000000100, '$."age"', '30', 10],
      },
    ],
    searchGrams: [
      {
        sql: 'select "object_ngrams"."object_id" from "object_ngrams" where "object_ngrams"."collection" = ? and "object_ngrams"."property" = ? and "object_ngrams"."gram" = ?',
        parameters: ['people', 'name', "x'07070707'"],
      },
      {
        sql: 'select "objects"."id", "objects"."created_at" from "objects" where "objects"."collection" = ? and ("objects"."expires_at" is null or "objects"."expires_at" > ?) and "objects"."id" in (?)',
        parameters: ['people', 1700000000000100, 'o1'],
      },
    ],
    getObjects: [
      {
        sql: 'select * from "objects" where "collection" = ? and "objects"."id" in (?, ?)',
        parameters: ['people', 'o1', 'o2'],
      },
    ],
    removeProperty: [
      {
        sql: 'update "objects" set "fields" = json_remove("fields", ?), "sealed" = json_remove("sealed", ?), "digests" = json_remove("digests", ?) where "collection" = ?',
        parameters: ['$."age"', '$."age"', '$."age"', 'people'],
      },
    ],
  },
  postgres: {
    findCredential: [
      {
        sql: '/* prepared */ select k."username", k."key_hash", k."expires_at", k."created_at", (select "value" from "vault_meta" where "key" = $1) as "meta" from (select 1 as "one") as "one" left join "api_keys" as k on k."key_hash" = $2',
        parameters: ['admin_key', "x'01010101'"],
      },
    ],
    metaGet: [
      {
        sql: '/* prepared */ select "value" from "vault_meta" where "key" = $1',
        parameters: ['vault_id'],
      },
    ],
    tokenInsert: [
      {
        sql: '/* prepared */ INSERT INTO tokens (row_id, collection, token_id, type, scope, props, object_id, tenant_id, sealed, fingerprint, tags, created_at, modified_at, expires_at, fptemplate, fpprops, transaction_id) VALUES ($1::text, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::bytea, $10::bytea, $11::text, $12::bigint, $13::bigint, $14::bigint, $15::text, $16::text, $17::text) ',
        parameters: [
          'r1',
          'cards',
          't1',
          'randomized',
          '',
          '["card"]',
          null,
          null,
          "x'09090909'",
          null,
          '["a","b"]',
          1700000000000000,
          1700000000000000,
          null,
          null,
          null,
          null,
        ],
      },
      {
        sql: '/* prepared */ INSERT INTO token_tags (collection, tag, row_id) SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ',
        parameters: ['{"cards","cards"}', '{"a","b"}', '{"r1","r1"}'],
      },
    ],
    claimIds: [
      {
        sql: '/* prepared */ INSERT INTO token_ids (collection, token_id, type) VALUES ($1::text, $2::text, $3::text) ON CONFLICT DO NOTHING RETURNING token_id',
        parameters: ['cards', 't2', 'randomized'],
      },
    ],
    auditInsert: [
      {
        sql: '/* prepared */ INSERT INTO audit_events (event_id, time, request_id, username, operation, collection, outcome, status, record) VALUES ($1::text, $2::bigint, $3::text, $4::text, $5::text, $6::text, $7::text, $8::integer, $9::text) ',
        parameters: [
          'e1',
          1700000000000000,
          'q1',
          'Admin',
          'tokenize',
          'cards',
          'success',
          200,
          '{}',
        ],
      },
    ],
    objectsInsert: [
      {
        sql: '/* prepared */ INSERT INTO objects (collection, id, tenant_id, owner_id, owner_collection, created_at, modified_at, expires_at, version, fields, sealed, digests) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::integer[], $10::text[], $11::text[], $12::text[]) ',
        parameters: [
          '{"people","people"}',
          '{"n1","n2"}',
          '{NULL,NULL}',
          '{NULL,NULL}',
          '{NULL,NULL}',
          '{1700000000000005,1700000000000006}',
          '{1700000000000005,1700000000000006}',
          '{NULL,NULL}',
          '{1,1}',
          '{"{}","{}"}',
          '{"{}","{}"}',
          '{"{}","{}"}',
        ],
      },
    ],
    entriesInsert: [
      {
        sql: '/* prepared */ INSERT INTO object_index (collection, property, digest, object_id) VALUES ($1::text, $2::text, $3::bytea, $4::text) ',
        parameters: ['people', 'email', "x'02020202'", 'o1'],
      },
      {
        sql: '/* prepared */ INSERT INTO object_unique (collection, property, digest, object_id) VALUES ($1::text, $2::text, $3::bytea, $4::text) ',
        parameters: ['people', 'ssn', "x'03030303'", 'o1'],
      },
    ],
    searchDigests: [
      {
        sql: '/* prepared */ select "objects"."collection", "objects"."id", "objects"."tenant_id", "objects"."owner_id", "objects"."owner_collection", "objects"."created_at", "objects"."modified_at", "objects"."expires_at", "objects"."version", "objects"."fields", "objects"."sealed", "objects"."digests" from "objects" where "objects"."collection" = $1 and ("objects"."expires_at" is null or "objects"."expires_at" > $2) and "objects"."id" = any(array((select "object_index"."object_id" from "object_index" where "object_index"."collection" = $3 and "object_index"."property" = $4 and "object_index"."digest" in ($5)))) order by "objects"."created_at", "objects"."id" limit $6',
        parameters: ['people', 1700000000000100, 'people', 'email', "x'01010101'", 10],
      },
    ],
    // A keyset walk (no index condition): sorts and bitmaps off for its transaction (ADR 0020).
    searchPlain: [
      { sql: 'begin', parameters: [] },
      {
        sql: "SELECT set_config('enable_sort', 'off', true), set_config('enable_bitmapscan', 'off', true)",
        parameters: [],
      },
      {
        sql: 'select "objects"."collection", "objects"."id", "objects"."tenant_id", "objects"."owner_id", "objects"."owner_collection", "objects"."created_at", "objects"."modified_at", "objects"."expires_at", "objects"."version", "objects"."fields", "objects"."sealed", "objects"."digests" from "objects" where "objects"."collection" = $1 and ("objects"."expires_at" is null or "objects"."expires_at" > $2) and ((objects.fields::jsonb -> $3)::text) in ($4) order by "objects"."created_at", "objects"."id" limit $5',
        parameters: ['people', 1700000000000100, 'age', '30', 10],
      },
      { sql: 'commit', parameters: [] },
    ],
    searchGrams: [
      {
        sql: 'select "objects"."id", "objects"."created_at" from "objects" where "objects"."collection" = $1 and ("objects"."expires_at" is null or "objects"."expires_at" > $2) and "objects"."id" = any(array((select "object_ngrams"."object_id" from "object_ngrams" where "object_ngrams"."collection" = $3 and "object_ngrams"."property" = $4 and "object_ngrams"."gram" = $5))) order by "objects"."created_at", "objects"."id" limit $6',
        parameters: ['people', 1700000000000100, 'people', 'name', "x'07070707'", 10001],
      },
    ],
    getObjects: [
      {
        sql: 'select * from "objects" where "collection" = $1 and "objects"."id" = any($2::text[])',
        parameters: ['people', ['o1', 'o2']],
      },
    ],
    removeProperty: [
      {
        sql: 'update "objects" set "fields" = ("fields"::jsonb - $1)::text, "sealed" = ("sealed"::jsonb - $2)::text, "digests" = ("digests"::jsonb - $3)::text where "collection" = $4',
        parameters: ['age', 'age', 'age', 'people'],
      },
    ],
  },
} satisfies Readonly<Record<'sqlite' | 'postgres', Expected>>
