// test/cli/logs.test.ts: one log format: every line `serve` writes is a JSON object (or pretty text on request)
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logLines, type Running, runCli, startCli } from '../helpers/cli.ts'
import { ADMIN_KEY, API } from '../helpers/server.ts'

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

function expectJsonLines(output: string): Record<string, unknown>[] {
  const lines = output.split('\n').filter((line) => line.trim() !== '')
  for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow()
  const parsed = logLines(output)
  for (const line of parsed) {
    expect(line).toMatchObject({
      level: expect.stringMatching(/^(trace|debug|info|warn|error|fatal)$/),
      time: expect.stringMatching(ISO_TIME),
      msg: expect.any(String),
    })
  }
  return parsed
}

describe('service log', () => {
  let running: Running
  let output = ''
  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${running.address}${API}${path}`, init)

  beforeAll(async () => {
    running = await startCli(['serve', '--dev'], {
      SVC_BACKING_STORE: 'memory',
      SVC_LOG_LEVEL: 'info',
    })
  })
  afterAll(async () => {
    if (running.child.exitCode === null) await running.stop()
  })

  it('uses a well-formed X-Request-ID and echoes it', async () => {
    const res = await call('/data/info/health', { headers: { 'x-request-id': 'req-01HZX.abc:42' } })
    expect(res.headers.get('x-request-id')).toBe('req-01HZX.abc:42')
  })

  it('replaces a malformed X-Request-ID instead of echoing it', async () => {
    for (const bad of ['has space', 'x'.repeat(129), 'quote"inside', 'semi;colon']) {
      const res = await call('/data/info/health', { headers: { 'x-request-id': bad } })
      const id = res.headers.get('x-request-id')
      expect(id).not.toBe(bad)
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
    }
  })

  it('writes start-up lines and every request as JSON with level, ISO time, msg and reqId; 4xx at info, 5xx at error', async () => {
    const rejected = await call('/system/info/version', {
      headers: { authorization: 'Bearer not-a-key', 'x-request-id': 'client-4xx' },
    })
    expect(rejected.status).toBe(401)
    const failed = await call('/system/debug/error/trigger', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ADMIN_KEY}`,
        'content-type': 'application/json',
        'x-request-id': 'client-5xx',
      },
      body: JSON.stringify({ status: 500 }),
    })
    expect(failed.status).toBe(500)
    expect(await running.stop('SIGTERM')).toBe(0)
    output = running.output()

    const lines = expectJsonLines(output)
    const banner = lines.find((line) => line.address === running.address)
    expect(banner).toMatchObject({
      level: 'info',
      msg: expect.stringMatching(/^Strongroom .* listening on /),
    })
    expect(lines.some((line) => line.msg === 'shutting down')).toBe(true)
    const requests = lines.filter((line) => line.msg === 'request')
    expect(requests.find((line) => line.reqId === 'req-01HZX.abc:42')).toMatchObject({
      level: 'info',
      status: 200,
    })
    expect(requests.find((line) => line.reqId === 'client-4xx')).toMatchObject({
      level: 'info',
      status: 401,
    })
    expect(requests.find((line) => line.reqId === 'client-5xx')).toMatchObject({
      level: 'error',
      status: 500,
    })
    for (const line of requests) expect(line.reqId).toEqual(expect.any(String))
    expect(output).not.toContain('has space')
    expect(output).not.toContain('not-a-key')
  })

  it('writes a start-up failure as one JSON line listing the problems', async () => {
    const { code, output } = await runCli(['serve', '--dev'], { SVC_LOG_LEVEL: 'loud' })
    expect(code).toBe(2)
    const [line, ...rest] = expectJsonLines(output)
    expect(rest).toEqual([])
    expect(line).toMatchObject({
      level: 'fatal',
      problems: [expect.stringContaining('SVC_LOG_LEVEL')],
    })
  })
})

describe('service log with SVC_LOG_FORMAT=pretty', () => {
  it('writes lines for humans through pino-pretty', async () => {
    const running = await startCli(
      ['serve', '--dev'],
      { SVC_BACKING_STORE: 'memory', SVC_LOG_FORMAT: 'pretty' },
      (output) => (/Store: /.test(output) ? /listening on (http\S+)/.exec(output)?.[1] : undefined),
    )
    expect(await running.stop('SIGTERM')).toBe(0)
    expect(running.output()).toMatch(/INFO.*: Strongroom .* listening on http/)
    expect(running.output()).not.toMatch(/^\{"level"/m)
  })
})
