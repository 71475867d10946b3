// test/api/audit-faults.test.ts: the file audit sink through faults: a full disk, a deleted file, a sink that hangs
import { execFileSync } from 'node:child_process'
import { closeSync, constants, openSync } from 'node:fs'
import { mkdtemp, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { verifyLines } from '../../src/core/audit/verify.ts'
import { logLines, startCli } from '../helpers/cli.ts'
import { ADMIN_KEY, API, startTestServer, type TestServer } from '../helpers/server.ts'
import { fillUp, mountTmpfs, unmount } from '../helpers/tmpfs.ts'

const VERSION = `${API}/system/info/version`
const dirPromise = mkdtemp(join(tmpdir(), 'strongroom-audit-faults-'))
afterAll(async () => rm(await dirPromise, { recursive: true, force: true }))

async function auditLines(file: string): Promise<string[]> {
  return (await readFile(file, 'utf8')).split('\n').slice(0, -1)
}

describe('a full disk under the audit file', () => {
  it('fails calls with 503 ERR1014 while full, keeps whole records only, and recovers by itself', async () => {
    const dir = await mountTmpfs(join(await dirPromise, 'tmpfs'))
    if (dir === undefined) return
    const file = join(dir, 'audit.log')
    let server: TestServer | undefined
    try {
      server = await startTestServer({
        env: { SVC_LOG_AUDIT_SINK: 'file', SVC_LOG_AUDIT_FILE: file },
      })
      expect((await server.request('GET', VERSION)).status).toBe(200)
      fillUp(join(dir, 'filler'))
      // The last page of the audit file may still take a record or two.
      const statuses: number[] = []
      let refused: Response | undefined
      for (let i = 0; i < 50 && refused === undefined; i += 1) {
        const res = await server.request('GET', `${VERSION}?custom_audit=full-${i}`)
        statuses.push(res.status)
        if (res.status !== 200) refused = res
      }
      expect(refused?.status).toBe(503)
      expect(await refused?.json()).toMatchObject({
        error_code: 'ERR1014',
        context: { sink: 'file' },
        message: expect.stringContaining('could not record the call (ENOSPC)'),
      })
      const ready = await server.request('GET', `${API}/ctl/info/ready`, { token: null })
      expect(ready.status).toBe(503)
      expect(await ready.json()).toMatchObject({ status: 'fail', checks: { audit_file: 'fail' } })

      await unlink(join(dir, 'filler'))
      expect((await server.request('GET', `${VERSION}?custom_audit=after`)).status).toBe(200)
      expect((await server.request('GET', `${API}/ctl/info/ready`, { token: null })).status).toBe(
        200,
      )
      const lines = await auditLines(file)
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow()
      const written = statuses.filter((status) => status === 200).length
      // The chain start, the first call, the calls that fit and the call after recovery.
      expect(lines.length).toBe(1 + 1 + written + 1)
      const report = verifyLines(lines)
      expect(report.broken).toBeUndefined()
      expect(report.records).toBe(lines.length)
      expect(JSON.parse(lines.at(-1) ?? '')).toMatchObject({ custom_audit: 'after' })
    } finally {
      await server?.close()
      unmount(dir)
    }
  })
})

describe('a deleted or renamed audit file', () => {
  it('is noticed on the next call, reopened, and said so at error level', async () => {
    const file = join(await dirPromise, 'deleted', 'audit.log')
    const running = await startCli(['serve', '--dev'], {
      SVC_BACKING_STORE: 'memory',
      SVC_LOG_AUDIT_SINK: 'file',
      SVC_LOG_AUDIT_FILE: file,
    })
    const call = (audit: string) =>
      fetch(`${running.address}${VERSION}?custom_audit=${audit}`, {
        headers: { authorization: `Bearer ${ADMIN_KEY}` },
      })
    try {
      expect((await call('before')).status).toBe(200)
      await unlink(file)
      expect((await call('after-delete')).status).toBe(200)
      expect((await auditLines(file)).map((line) => JSON.parse(line).custom_audit)).toEqual([
        'after-delete',
      ])
      await rename(file, `${file}.1`)
      expect((await call('after-rename')).status).toBe(200)
      expect((await auditLines(file)).map((line) => JSON.parse(line).custom_audit)).toEqual([
        'after-rename',
      ])
      // The deleted file's chain goes on in the renamed one; the batch written when the rename
      // was noticed ends the renamed file and begins the new one.
      const renamed = await auditLines(`${file}.1`)
      expect(renamed.map((line) => JSON.parse(line).custom_audit)).toEqual([
        'after-delete',
        'after-rename',
      ])
      expect(verifyLines(renamed).begins).toBe('continues')
      expect(verifyLines(renamed).broken).toBeUndefined()
      expect((await auditLines(file))[0]).toBe(renamed.at(-1))
      await writeFile(`${file}.new`, '')
      await rename(`${file}.new`, file)
      expect((await call('after-replace')).status).toBe(200)
      expect((await auditLines(file)).map((line) => JSON.parse(line).custom_audit)).toEqual([
        'after-replace',
      ])
    } finally {
      await running.stop()
    }
    const errors = logLines(running.output()).filter((line) => line.level === 'error')
    expect(errors.map((line) => line.msg)).toEqual([
      expect.stringContaining('audit file was deleted or renamed; reopened it'),
      expect.stringContaining('audit file was deleted or renamed; reopened it'),
      expect.stringContaining('audit file was replaced by another file; reopened it'),
    ])
  })
})

describe('an audit sink that never completes', () => {
  it('fails the call with 503 ERR1014 after SVC_LOG_AUDIT_TIMEOUT, is not ready, and recovers', async () => {
    const fifo = join(await dirPromise, 'audit.fifo')
    execFileSync('mkfifo', [fifo])
    const server = await startTestServer({
      env: {
        SVC_LOG_AUDIT_SINK: 'file',
        SVC_LOG_AUDIT_FILE: fifo,
        SVC_LOG_AUDIT_TIMEOUT: '300ms',
      },
    })
    let reader: number | undefined
    try {
      // Nobody reads the FIFO: opening it for writing blocks, so the record never completes.
      const res = await server.request('GET', VERSION)
      expect(res.status).toBe(503)
      expect(await res.json()).toMatchObject({
        error_code: 'ERR1014',
        message: expect.stringContaining('did not confirm the record within 300 ms'),
      })
      const ready = await server.request('GET', `${API}/data/info/ready`, { token: null })
      expect(ready.status).toBe(503)
      expect(await ready.json()).toMatchObject({ checks: { audit_file: 'fail' } })
      // Liveness stays separate: the node itself is fine.
      expect((await server.request('GET', `${API}/data/info/health`, { token: null })).status).toBe(
        200,
      )
      // A reader appears: the write under way completes and later calls succeed again.
      reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK)
      let status = 0
      for (let i = 0; i < 100 && status !== 200; i += 1)
        status = (await server.request('GET', VERSION)).status
      expect(status).toBe(200)
    } finally {
      await server.close()
      if (reader !== undefined) closeSync(reader)
    }
  })
})
