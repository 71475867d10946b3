// src/config-telemetry.test.ts: settings of logs, metrics and traces
import { describe, expect, it } from 'vitest'
import { dev, problemsOf, server } from '../test/helpers/config.ts'
import { describeConfig } from './config-describe.ts'

describe('logs, metrics and traces', () => {
  it('logs JSON by default in both modes, pretty on request', () => {
    expect(dev().log.format).toBe('json')
    expect(server().log.format).toBe('json')
    expect(dev({ SVC_LOG_FORMAT: 'pretty' }).log.format).toBe('pretty')
    expect(problemsOf(() => dev({ SVC_LOG_FORMAT: 'xml' }))).toEqual([
      'SVC_LOG_FORMAT: "xml" is not one of json, pretty',
    ])
  })

  it('keeps no metrics unless a listener or a token is set', () => {
    expect(dev().metrics).toEqual({ listen: undefined, token: '' })
    const config = dev({ SVC_METRICS_LISTEN_ADDR: '127.0.0.1:9464', SVC_METRICS_TOKEN: 's3cret' })
    expect(config.metrics).toEqual({ listen: { host: '127.0.0.1', port: 9464 }, token: 's3cret' })
    expect(describeConfig(config).service).toMatchObject({
      metrics_listen_addr: '127.0.0.1:9464',
      metrics_token: '***',
    })
    expect(problemsOf(() => dev({ SVC_METRICS_LISTEN_ADDR: 'nowhere' }))[0]).toMatch(
      /^SVC_METRICS_LISTEN_ADDR: "nowhere" is not host:port/,
    )
  })

  it('exports traces only when an OTLP endpoint is set, to its /v1/traces path', () => {
    expect(dev().tracing).toEqual({
      url: '',
      headers: {},
      serviceName: 'strongroom',
      sampler: 'parentbased_always_on',
      samplerRatio: 1,
    })
    const base = dev({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318/',
      OTEL_EXPORTER_OTLP_HEADERS: 'Authorization=Bearer%20abc, x-team = vault',
      OTEL_SERVICE_NAME: 'vault-eu',
    })
    expect(base.tracing).toMatchObject({
      url: 'http://127.0.0.1:4318/v1/traces',
      headers: { authorization: 'Bearer abc', 'x-team': 'vault' },
      serviceName: 'vault-eu',
    })
    const traces = dev({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://collector.example/otlp/traces',
    })
    expect(traces.tracing.url).toBe('https://collector.example/otlp/traces')
  })

  it('samples with the OpenTelemetry sampler names', () => {
    const ratio = dev({
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    })
    expect(ratio.tracing).toMatchObject({ sampler: 'parentbased_traceidratio', samplerRatio: 0.1 })
    expect(
      problemsOf(() => dev({ OTEL_TRACES_SAMPLER: 'sometimes', OTEL_TRACES_SAMPLER_ARG: '2' })),
    ).toEqual([
      expect.stringMatching(
        /^OTEL_TRACES_SAMPLER: "sometimes" is not one of parentbased_always_on/,
      ),
      'OTEL_TRACES_SAMPLER_ARG: "2" is not a number from 0 to 1',
    ])
  })

  it('refuses a malformed OTLP endpoint or headers without echoing the headers', () => {
    const problems = problemsOf(() =>
      dev({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'secret-token',
      }),
    )
    expect(problems).toHaveLength(2)
    expect(problems[0]).toMatch(/^OTEL_EXPORTER_OTLP_ENDPOINT: .* is not an http/)
    expect(problems[1]).toMatch(/^OTEL_EXPORTER_OTLP_HEADERS: not a comma-separated list/)
    expect(problems.join('\n')).not.toContain('secret-token')
  })
})
