// test/client/tokens.test.ts: the published client's tokens operations work unchanged
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { VaultClient } from '@piiano/vault-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_KEY, startTestServer, type TestServer } from '../helpers/server.ts'
import { CARDS } from '../helpers/tokens.ts'

const reason = 'AppFunctionality' as const
const collection = 'cards'
const CARD = '4111111111111111'

describe('published client: tokens', () => {
  let server: TestServer
  let client: VaultClient
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'strongroom-client-tokens-'))
    server = await startTestServer({ env: { SVC_BACKING_STORE: 'sqlite', SVC_DATA_DIR: dir } })
    client = new VaultClient({ vaultURL: server.baseUrl, apiKey: ADMIN_KEY })
    await client.collections.addCollection({ requestBody: CARDS as never })
  })
  afterAll(async () => {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  })

  it('tokenizes, detokenizes, searches, updates, rotates, counts and deletes', async () => {
    const [first] = await client.tokens.tokenize({
      collection,
      reason,
      transactionId: 'tx-client-1',
      requestBody: [
        { type: 'randomized', object: { fields: { card: CARD, name: 'Ann' } }, tags: ['a'] },
      ],
    })
    const tokenId = first?.token_id as string
    const detokenized = await client.tokens.detokenize({ collection, reason, tokenIds: [tokenId] })
    expect(detokenized).toEqual([{ token_id: tokenId, fields: { card: CARD, name: 'Ann' } }])
    const found = await client.tokens.searchTokens({
      collection,
      reason,
      requestBody: { tags: ['a'] },
    })
    expect(found.map((t) => t.token_id)).toEqual([tokenId])
    expect(
      await client.tokens.getByTransactionId({ collection, reason, id: 'tx-client-1' }),
    ).toEqual({ ref_ids: [tokenId] })
    await client.tokens.updateTokens({
      collection,
      reason,
      tokenIds: [tokenId],
      requestBody: { tags: ['b'] },
    })
    const [updated] = await client.tokens.searchTokens({
      collection,
      reason,
      requestBody: { token_ids: [tokenId] },
    })
    expect(updated?.tokens.map((t) => t.tags)).toEqual([['b']])
    const rotated = await client.tokens.rotateTokens({ collection, reason, tokenIds: [tokenId] })
    const newId = rotated[tokenId] as string
    expect(newId).toMatch(/^[0-9a-f-]{36}$/)
    expect(await client.tokens.getTokensCount({ collection, reason })).toMatchObject({ active: 1 })
    await client.tokens.deleteTokens({ collection, reason, tokenIds: [newId] })
    expect(await client.tokens.getTokensCount({ collection, reason })).toMatchObject({ active: 0 })
  })

  it('exports and imports tokens with the export key', async () => {
    const [pci] = await client.tokens.tokenize({
      collection,
      reason,
      requestBody: [{ type: 'pci', object: { fields: { card: '5500000000000004' } } }],
    })
    const page = await client.tokens.exportTokens({ collection, reason, pageSize: 10 as never })
    const exported = page.results.filter((t) => t.token_id === pci?.token_id)
    expect(exported).toHaveLength(1)
    const { export_key } = await client.system.getExportKey()
    await client.collections.addCollection({ requestBody: { ...CARDS, name: 'copies' } as never })
    const imported = await client.tokens.importTokens({
      collection: 'copies',
      reason,
      exportKey: export_key,
      requestBody: exported,
    })
    expect(imported).toEqual({ ok: true, results: [{ token_id: pci?.token_id, ok: true }] })
    expect(
      await client.tokens.detokenize({
        collection: 'copies',
        reason,
        tokenIds: [pci?.token_id as string],
      }),
    ).toEqual([{ token_id: pci?.token_id, fields: { card: '5500000000000004' } }])
  })
})
