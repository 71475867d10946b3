// test/cli/lazy-telemetry.test.ts: a node without metrics, traces or pretty logs never loads their packages
import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

/** Starts and stops a node in a fresh process and lists every module URL it resolved. */
function modulesLoaded(env: Record<string, string>): string[] {
  const script = `
    import { registerHooks } from 'node:module'
    const seen = []
    registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.push(r.url); return r } })
    const { createApp } = await import('./src/app.ts')
    const { loadConfig } = await import('./src/config.ts')
    const config = loadConfig({ SVC_BACKING_STORE: 'memory', SVC_SERVICE_LISTEN_ADDR: '127.0.0.1:0', SVC_LOG_AUDIT_SINK: 'none', ...${JSON.stringify(env)} }, { devmode: true, files: false })
    const app = await createApp(config, { isLogSilent: true })
    await app.listen()
    await app.close()
    process.stdout.write(JSON.stringify(seen))
  `
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  })
  expect(result.status, result.stderr).toBe(0)
  return JSON.parse(result.stdout)
}

const OPTIONAL = /\/node_modules\/(@opentelemetry|prom-client|pino-pretty|@fastify\/swagger-ui)\//

describe('optional telemetry', () => {
  it('loads no metrics, tracing, prettifier or docs UI package when none is configured', () => {
    const loaded = modulesLoaded({})
    expect(loaded.length).toBeGreaterThan(50)
    expect(loaded.filter((url) => OPTIONAL.test(url))).toEqual([])
  })

  it('loads prom-client and OpenTelemetry once they are configured', () => {
    const loaded = modulesLoaded({
      SVC_METRICS_TOKEN: 'token-for-the-test',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    })
    expect(loaded.some((url) => url.includes('/node_modules/prom-client/'))).toBe(true)
    expect(loaded.some((url) => url.includes('/node_modules/@opentelemetry/sdk-trace/'))).toBe(true)
  })
})
