// test/api/types-file.test.ts: custom types and bundles loaded from types.toml and bundles/ at start (config.md §5)
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createApp } from '../../src/app.ts'
import { SSN_HELPERS } from '../helpers/bundles.ts'
import { describeEngines } from '../helpers/engines.ts'
import { ADMIN_KEY, API, fetchJson, startTestServer, testConfig } from '../helpers/server.ts'

const dir = await mkdtemp(join(tmpdir(), 'strongroom-types-'))
afterAll(() => rm(dir, { recursive: true, force: true }))

const TYPES_TOML = `
[bundles.string_ssn]
description = "SSN helpers"
file = "string_ssn.js"

[types.STRING_SSN]
base_type_name = "STRING"
description = "Relaxed SSN"
validator = "string_ssn.validate"
normalizer = "string_ssn.normalize"
transformers = ["string_ssn.mask"]
default_transformer = "mask"
`

async function writeConf(
  name: string,
  files: Record<string, string>,
  folder = 'bundles',
): Promise<string> {
  const conf = join(dir, name, 'conf')
  await mkdir(join(conf, folder), { recursive: true })
  for (const [file, text] of Object.entries(files)) {
    const path = file.endsWith('.js') ? join(conf, folder, file) : join(conf, file)
    await writeFile(path, text)
  }
  return conf
}

/** Starts a node on a SQLite file of `name`; answers GET `path` as JSON, or the start error. */
async function startAndGet(name: string, path: string, env: Record<string, string> = {}) {
  const app = await createApp(
    testConfig({
      SVC_BACKING_STORE: 'sqlite',
      SVC_DATA_DIR: join(dir, name, 'data'),
      SVC_CONFIG_DIR: join(dir, name, 'conf'),
      ...env,
    }),
    { isLogSilent: true },
  )
  const base = await app.listen()
  try {
    const res = await fetchJson(`${base}${API}${path}`, {
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    })
    return res.json()
  } finally {
    await app.close()
  }
}

describeEngines('types file at first start', (engine) => {
  it('adds the bundles and the types of the configuration directory', async () => {
    const conf = await writeConf(`first-${engine}`, {
      'types.toml': TYPES_TOML,
      'string_ssn.js': SSN_HELPERS,
    })
    const server = await startTestServer({ engine, env: { SVC_CONFIG_DIR: conf } })
    try {
      const type = await (await server.request('GET', `${API}/ctl/types/STRING_SSN`)).json()
      expect(type).toMatchObject({
        base_type_name: 'STRING',
        validator: 'string_ssn.validate',
        normalizer: 'string_ssn.normalize',
        transformers: ['string_ssn.mask'],
      })
      const bundle = await (await server.request('GET', `${API}/ctl/bundles/string_ssn`)).json()
      expect(bundle.description).toBe('SSN helpers')
      const audit = await server.app.store.audit.list({ limit: 100 })
      const operations = audit.map((row) => JSON.parse(row.record).operation)
      expect(operations).toEqual(expect.arrayContaining(['load_types_file']))
    } finally {
      await server.close()
    }
  })
})

describe('types file across restarts', () => {
  it('accepts the reference product names pvault.types.toml and pvault.bundles/', async () => {
    await writeConf(
      'pvault',
      { 'pvault.types.toml': TYPES_TOML, 'string_ssn.js': SSN_HELPERS },
      'pvault.bundles',
    )
    const types = await startAndGet('pvault', '/ctl/types')
    expect(types.map((t: { name: string }) => t.name)).toEqual(['STRING_SSN'])
  })

  it('applies the file only on first start, or every start with SVC_SERVICE_UPDATE_SCHEMA_ON_START', async () => {
    await writeConf('restart', { 'types.toml': TYPES_TOML, 'string_ssn.js': SSN_HELPERS })
    expect((await startAndGet('restart', '/ctl/types/STRING_SSN')).description).toBe('Relaxed SSN')
    await writeConf('restart', { 'types.toml': TYPES_TOML.replace('Relaxed SSN', 'Changed') })
    expect((await startAndGet('restart', '/ctl/types/STRING_SSN')).description).toBe('Relaxed SSN')
    const reloaded = await startAndGet('restart', '/ctl/types/STRING_SSN', {
      SVC_SERVICE_UPDATE_SCHEMA_ON_START: 'true',
    })
    expect(reloaded.description).toBe('Changed')
  })

  it('refuses to start on a malformed file, a missing bundle file or a refused type', async () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['broken', { 'types.toml': '[types.X\n' }, /types\.toml: it cannot be parsed/],
      ['nofile', { 'types.toml': TYPES_TOML }, /bundles\/string_ssn\.js does not exist/],
      [
        'badtype',
        {
          'types.toml': TYPES_TOML.replace('"string_ssn.validate"', '"string_ssn.mask"'),
          'string_ssn.js': SSN_HELPERS,
        },
        /types\.toml: The data type STRING_SSN is invalid: validator string_ssn\.mask is a transformer/,
      ],
      [
        'badcode',
        { 'types.toml': TYPES_TOML, 'string_ssn.js': 'exports.x = {' },
        /types\.toml: The code of bundle string_ssn does not load/,
      ],
    ]
    for (const [name, files, message] of cases) {
      await writeConf(name, files)
      await expect(startAndGet(name, '/ctl/types')).rejects.toThrow(message)
    }
  })
})
