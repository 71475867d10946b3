// bench/in-process.ts: a node started in the benchmark's own process, with the `people` collection
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'

export const DURATION = Number(process.env.BENCH_SECONDS ?? 10)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16)
export const STORE = process.env.BENCH_STORE ?? 'memory'
export const AUTH = { authorization: 'Bearer pvaultauth', 'content-type': 'application/json' }

export type InProcessNode = {
  /** `http://host:port/api/pvlt/1.0` */
  readonly base: string
  post(path: string, body: unknown): Promise<unknown>
  close(): Promise<void>
}

/**
 * Starts a dev-mode node (audit to the database table) on a free port and creates `people`
 * (PERSONS: name, ssn, email, all encrypted). `env` adds settings (bench/telemetry.ts).
 */
export async function startInProcess(env: Record<string, string> = {}): Promise<InProcessNode> {
  // A fresh data directory each run (the SQLite store's file), removed on close.
  const dataDir = mkdtempSync(join(tmpdir(), 'strongroom-bench-'))
  const config = loadConfig(
    {
      SVC_BACKING_STORE: STORE,
      SVC_DATA_DIR: dataDir,
      SVC_SERVICE_LISTEN_ADDR: '127.0.0.1:0',
      SVC_LOG_LEVEL: 'error',
      SVC_LOG_AUDIT_SINK: 'database',
      ...env,
    },
    { devmode: true, files: false },
  )
  const app = await createApp(config, { isLogSilent: true })
  const base = `${await app.listen()}/api/pvlt/1.0`
  async function post(path: string, body: unknown): Promise<unknown> {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`)
    return res.json()
  }
  await post('/ctl/collections', {
    name: 'people',
    type: 'PERSONS',
    properties: [
      { name: 'name', data_type_name: 'NAME' },
      { name: 'ssn', data_type_name: 'SSN' },
      { name: 'email', data_type_name: 'EMAIL' },
    ],
  })
  return {
    base,
    post,
    async close() {
      await app.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
