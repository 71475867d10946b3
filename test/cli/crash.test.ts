// test/cli/crash.test.ts: every acknowledged write survives kill -9 of a real `strongroom serve` on SQLite
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { startCli } from '../helpers/cli.ts'
import { ADMIN_KEY } from '../helpers/server.ts'

const dataDir = mkdtempSync(join(tmpdir(), 'strongroom-crash-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const env = {
  SVC_BACKING_STORE: 'sqlite',
  SVC_DATA_DIR: dataDir,
  SVC_LOG_AUDIT_SINK: 'database',
}
const REASON = 'reason=AppFunctionality'

type Answer<T> = { status: number; body: T }

async function call<T>(
  base: string,
  method: string,
  path: string,
  payload?: unknown,
): Promise<Answer<T>> {
  const res = await fetch(`${base}/api/pvlt/1.0${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  })
  return { status: res.status, body: (await res.json().catch(() => undefined)) as T }
}

describe('kill -9 during concurrent writes (SQLite, durable default)', () => {
  it('keeps every token and object whose call was answered, and their audit records', async () => {
    const first = await startCli(['serve', '--dev'], env)
    const base = first.address
    const collection = {
      name: 'people',
      type: 'PERSONS',
      properties: [
        { name: 'name', data_type_name: 'NAME' },
        { name: 'ssn', data_type_name: 'SSN', is_unique: true },
      ],
    }
    expect((await call(base, 'POST', '/ctl/collections', collection)).status).toBe(200)
    const tokens: string[] = []
    const objects: string[] = []
    let isRunning = true
    // Eight writers, each one call after another, until the process is killed under them.
    const writer = async (w: number) => {
      for (let i = 0; isRunning; i++) {
        const ssn = `${String(100 + w)}-${String(10 + (i % 90))}-${String(1000 + Math.floor(i / 90))}`
        try {
          if (i % 2 === 0) {
            const res = await call<{ token_id: string }[]>(
              base,
              'POST',
              `/data/collections/people/tokens?${REASON}`,
              [{ type: 'randomized', object: { fields: { name: `W${w} ${i}`, ssn } } }],
            )
            const token = res.body[0]?.token_id
            if (res.status === 200 && token !== undefined) tokens.push(token)
          } else {
            const res = await call<{ id: string }>(
              base,
              'POST',
              `/data/collections/people/objects?${REASON}`,
              {
                name: `W${w} ${i}`,
                ssn,
              },
            )
            if (res.status === 200) objects.push(res.body.id)
          }
        } catch {
          return // the connection died with the process
        }
      }
    }
    const writers = Array.from({ length: 8 }, (_, w) => writer(w))
    await sleep(1500)
    await first.stop('SIGKILL')
    isRunning = false
    await Promise.all(writers)
    expect(tokens.length + objects.length).toBeGreaterThan(50)

    const second = await startCli(['serve', '--dev'], env)
    const again = second.address
    try {
      for (let i = 0; i < tokens.length; i += 100) {
        const ids = tokens.slice(i, i + 100).join(',')
        const res = await call<{ token_id: string }[]>(
          again,
          'GET',
          `/data/collections/people/tokens?${REASON}&token_ids=${ids}`,
        )
        expect(res.status).toBe(200)
        expect(res.body.map((t) => t.token_id).sort()).toEqual(tokens.slice(i, i + 100).sort())
      }
      for (let i = 0; i < objects.length; i += 100) {
        const ids = objects.slice(i, i + 100).join(',')
        const res = await call<{ results: unknown[] }>(
          again,
          'GET',
          `/data/collections/people/objects?${REASON}&ids=${ids}&props=name`,
        )
        expect(res.status).toBe(200)
        expect(res.body.results).toHaveLength(objects.slice(i, i + 100).length)
      }
    } finally {
      await second.stop()
    }
    // Every acknowledged write has its record (the database sink, in the write's transaction).
    const db = new DatabaseSync(join(dataDir, 'strongroom.db'), { readOnly: true })
    const count = (operation: string) =>
      Number(
        (
          db
            .prepare(
              "SELECT count(*) AS n FROM audit_events WHERE operation = ? AND outcome = 'success'",
            )
            .get(operation) as { n: number }
        ).n,
      )
    expect(count('tokenize')).toBeGreaterThanOrEqual(tokens.length)
    expect(count('add_object')).toBeGreaterThanOrEqual(objects.length)
    db.close()
  }, 60_000)
})
