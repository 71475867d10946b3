// test/storage/statements.test.ts: the exact SQL each engine runs for the hot statements (authentication, tokenize, object writes, searches)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ObjectFilter } from '../../src/core/objects/store.ts'
import type { Store } from '../../src/core/store.ts'
import type { TokenRecord } from '../../src/core/tokens/store.ts'
import { type DatabaseOptions, openDatabase } from '../../src/storage/database.ts'
import { migrate } from '../../src/storage/migrate.ts'
import { createSqlStore } from '../../src/storage/sql-store.ts'
import { createTestDatabase, findTestPostgres } from '../helpers/postgres.ts'
import { object, T0 } from './contract-objects.ts'
import { HOT_STATEMENTS } from './statements.ts'

const bytes = (n: number) => new Uint8Array(4).fill(n)

/** An object row created (and last changed) at `createdAt`. */
const row = (id: string, createdAt: number, fields: string) =>
  object(id, { createdAt, modifiedAt: createdAt, fields })

const token: TokenRecord = {
  rowId: 'r1',
  collection: 'cards',
  tokenId: 't1',
  type: 'randomized',
  scope: '',
  props: ['card'],
  objectId: undefined,
  tenantId: undefined,
  sealed: bytes(9),
  fingerprint: undefined,
  tags: ['a', 'b'],
  createdAt: T0,
  modifiedAt: T0,
  expiresAt: undefined,
  fptemplate: undefined,
  fpprops: undefined,
  transactionId: undefined,
}

const active: ObjectFilter = { collection: 'people', state: 'active', now: T0 + 100 }
const entries = (property: string, n: number) => [
  { collection: 'people', property, digest: bytes(n), objectId: 'o1' },
]

/** A statement as the driver received it; bytes shown as hex so the expectations stay readable. */
type Statement = { sql: string; parameters: unknown[] }
const shown = (value: unknown) =>
  value instanceof Uint8Array ? `x'${Buffer.from(value).toString('hex')}'` : value

function describeStatements(
  engine: 'sqlite' | 'postgres',
  options: () => Promise<DatabaseOptions>,
) {
  describe(`hot statements on ${engine}`, () => {
    let store: Store
    let seen: Statement[] = []
    beforeAll(async () => {
      const database = openDatabase(await options(), {
        onQuery: (sql, _ms, parameters) => seen.push({ sql, parameters: parameters.map(shown) }),
      })
      await migrate(database.db, database.dialect)
      store = createSqlStore(database)
      await store.objects.insert([row('o1', T0 + 1, '{"age":30}'), row('o2', T0 + 2, '{"age":31}')])
      await store.searchIndex.insertIndex(entries('email', 1))
      await store.substring.replaceGrams(
        'people',
        [{ objectId: 'o1', grams: [{ property: 'name', gram: bytes(7) }] }],
        [],
      )
    })
    afterAll(() => store?.close())

    /** Runs `work` and compares the statements it sent, in order, with the expected ones. */
    async function check(name: keyof (typeof HOT_STATEMENTS)[typeof engine], work: () => unknown) {
      seen = []
      await work()
      expect(seen).toEqual(HOT_STATEMENTS[engine][name])
    }

    it('authenticates an API key in one statement', async () => {
      await check('findCredential', () => store.iam.findCredential(bytes(1), 'admin_key'))
      await check('metaGet', () => store.meta.get('vault_id'))
    })

    it('writes a token, its tags and the call audit record', async () => {
      await check('tokenInsert', () => store.tokens.insert([token]))
      await check('claimIds', () =>
        store.tokens.claimIds('cards', [{ tokenId: 't2', type: 'randomized' }]),
      )
      const event = {
        eventId: 'e1',
        time: T0,
        requestId: 'q1',
        username: 'Admin',
        operation: 'tokenize',
        collection: 'cards',
        outcome: 'success' as const,
        status: 200,
        record: '{}',
      }
      await check('auditInsert', () => store.audit.insert([event]))
    })

    it('writes new objects, their entries and the substring queue row', async () => {
      const rows = [row('n1', T0 + 5, '{}'), row('n2', T0 + 6, '{}')]
      await store
        .transaction(async (tx) => {
          await check('objectsInsert', () => tx.objects.insertNew(rows))
          await check('entriesInsert', () =>
            tx.searchIndex.insertNew(entries('email', 2), entries('ssn', 3)),
          )
          throw new Error('roll back')
        })
        .catch(() => {})
    })

    it('searches by blind-index digest, by plain value and by n-grams', async () => {
      const digests = { kind: 'digests', property: 'email', digests: [bytes(1)] } as const
      await check('searchDigests', () => store.objects.search(active, [digests], undefined, 10))
      const plain = { kind: 'plain', property: 'age', values: ['30'] } as const
      await check('searchPlain', () => store.objects.search(active, [plain], undefined, 10))
      const grams = { kind: 'grams', property: 'name', grams: [bytes(7)] } as const
      await check('searchGrams', () => store.objects.searchKeys(active, [grams], undefined, 10_001))
      await check('getObjects', () => store.objects.get('people', ['o1', 'o2']))
    })

    it('drops a property from every object of a collection', async () => {
      await check('removeProperty', () => store.objects.removeProperty('people', 'age'))
    })
  })
}

describeStatements('sqlite', async () => ({ kind: 'sqlite', file: ':memory:' }))

const url = await findTestPostgres()
const drops: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const drop of drops) await drop()
})
describe.skipIf(url === undefined)('PostgreSQL', () => {
  describeStatements('postgres', async () => {
    const { options, drop } = await createTestDatabase(url as string)
    drops.push(drop)
    return options
  })
})
