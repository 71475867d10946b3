// test/fuzz/run-fuzz.ts: runs the OpenAPI-driven fuzzer against a started server and counts what it finds
import fc from 'fast-check'
import {
  type Finding,
  type FuzzRequest,
  type FuzzStats,
  judge,
  type Operation,
  operationsOf,
  requestArb,
} from './fuzzer.ts'
import type { Known, Schema } from './values.ts'

export type FuzzOptions = Readonly<{
  baseUrl: string
  adminKey: string
  /** Stop after this many requests… */
  requests: number
  /** …or at this time (ms since the epoch), whichever comes first. */
  deadline: number
  seed: number
  concurrency: number
  /** Calls per operation that rotate keys or collect garbage: slow by design, not fuzz targets. */
  heavyLimit: number
}>

const HEAVY = new Set(['system.rotateKeys', 'system.garbageCollection'])
const REASON = 'reason=AppFunctionality'
const PER_CALL_MS = 40_000
const KEPT_FINDINGS = 25
/** Requests generated at a time per operation (sampling one by one costs more than sending). */
const BATCH = 25

/** Collections, objects and tokens the fuzzer's requests name, so they reach past the lookups. */
async function seed(baseUrl: string, key: string): Promise<Known> {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}/api/pvlt/1.0${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    // biome-ignore lint/suspicious/noExplicitAny: seed answers are read as plain JSON
    return res.ok ? ((await res.json().catch(() => undefined)) as any) : undefined
  }
  await call('POST', '/ctl/collections', {
    name: 'fuzz',
    type: 'PERSONS',
    properties: [
      { name: 'name', data_type_name: 'STRING', is_substring_index: true, is_nullable: true },
      { name: 'email', data_type_name: 'EMAIL', is_unique: true, is_nullable: true },
      { name: 'ssn', data_type_name: 'SSN', is_index: true, is_nullable: true },
      { name: 'age', data_type_name: 'INTEGER', is_nullable: true },
      { name: 'doc', data_type_name: 'JSON', is_nullable: true },
      { name: 'constructor', data_type_name: 'STRING', is_index: true, is_nullable: true },
      { name: 'plain', data_type_name: 'STRING', is_encrypted: false, is_nullable: true },
    ],
  })
  const created = await call('POST', `/data/collections/fuzz/objects?${REASON}`, {
    name: 'Ann Example',
    email: `ann${Date.now()}@example.com`,
    ssn: '123-45-6789',
    age: 42,
    constructor: 'x',
  })
  const tokens = await call('POST', `/data/collections/fuzz/tokens?${REASON}`, [
    { type: 'randomized', object: { fields: { name: 'Bo Example', age: 7 } } },
  ])
  const ids = [created?.id, tokens?.[0]?.token_id].filter((id) => typeof id === 'string')
  return {
    names: [
      'fuzz',
      'name',
      'email',
      'ssn',
      'age',
      'doc',
      'constructor',
      'plain',
      'id',
      'Writer',
      'Admin',
      'log_level',
      'trace_sql',
      'STRING',
      'EMAIL',
      'mask',
      'randomized',
      'pointer',
      'AppFunctionality',
      'unsafe',
      'show_builtins',
      '*exam*ple*',
      'ann@example.com',
      '123-45-6789',
    ],
    ids: ids.length > 0 ? ids : ['8d0f1c1e-8b6c-4ec3-a7f4-3b1ad8a0ad4e'],
  }
}

async function send(baseUrl: string, request: FuzzRequest, stats: FuzzStats) {
  try {
    return await sendOnce(baseUrl, request)
  } catch (error) {
    // A keep-alive connection the service closed (after a refused body) just as this request
    // took it: no answer was lost, the request never arrived. Sent again once, and counted.
    const code = (error as { cause?: { code?: string } }).cause?.code
    if (code !== 'UND_ERR_SOCKET') throw error
    stats.resent++
    return sendOnce(baseUrl, request)
  }
}

async function sendOnce(baseUrl: string, request: FuzzRequest) {
  const res = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    signal: AbortSignal.timeout(PER_CALL_MS),
  })
  const text = await res.text()
  return { status: res.status, contentType: res.headers.get('content-type'), text }
}

/**
 * Sends up to `requests` fuzzed requests, every operation in turn, `concurrency` at a time, and
 * counts server errors, malformed error bodies and calls that did not answer in time.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzStats> {
  // biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked as plain JSON
  const document = (await (await fetch(`${options.baseUrl}/openapi.json`)).json()) as any
  const root: Record<string, Schema> = document.components?.schemas ?? {}
  const operations = operationsOf(document)
  let adminKey = options.adminKey
  let known = await seed(options.baseUrl, adminKey)
  const arbitraries = new Map<string, fc.Arbitrary<FuzzRequest>>()
  const arbitraryOf = (operation: Operation) => {
    let arbitrary = arbitraries.get(operation.id)
    if (arbitrary === undefined) {
      arbitrary = requestArb(operation, known, root, () => adminKey)
      arbitraries.set(operation.id, arbitrary)
    }
    return arbitrary
  }
  const stats: FuzzStats = {
    requests: 0,
    resent: 0,
    msByOperation: {},
    byStatus: {},
    serverErrors: 0,
    malformedBodies: 0,
    hangs: 0,
    operations: operations.length,
    findings: [],
  }
  const heavyCalls = new Map<string, number>()
  const record = (finding: Finding) => {
    if (stats.findings.length < KEPT_FINDINGS) stats.findings.push(finding)
  }
  let turn = 0
  const queued = new Map<string, FuzzRequest[]>()
  const pick = (): { operation: Operation; request: FuzzRequest } | undefined => {
    for (let tries = 0; tries < operations.length; tries++) {
      const operation = operations[turn++ % operations.length] as Operation
      if (HEAVY.has(operation.id)) {
        const calls = heavyCalls.get(operation.id) ?? 0
        if (calls >= options.heavyLimit) continue
        heavyCalls.set(operation.id, calls + 1)
      }
      let queue = queued.get(operation.id)
      if (queue === undefined || queue.length === 0) {
        queue = fc.sample(arbitraryOf(operation), { numRuns: BATCH, seed: options.seed + turn })
        queued.set(operation.id, queue)
      }
      const request = queue.pop()
      if (request !== undefined) return { operation, request }
    }
    return undefined
  }
  const worker = async () => {
    while (stats.requests < options.requests && Date.now() < options.deadline) {
      const picked = pick()
      if (picked === undefined) return
      stats.requests++
      if (stats.requests % 5_000 === 0) {
        known = await seed(options.baseUrl, adminKey)
        arbitraries.clear()
      }
      const { operation, request } = picked
      try {
        const sent = performance.now()
        const answer = await send(options.baseUrl, request, stats)
        stats.msByOperation[operation.id] =
          (stats.msByOperation[operation.id] ?? 0) + performance.now() - sent
        stats.byStatus[answer.status] = (stats.byStatus[answer.status] ?? 0) + 1
        const problem = judge({ operation: operation.id, method: request.method, ...answer })
        if (problem !== undefined) {
          if (problem === 'server error') stats.serverErrors++
          else stats.malformedBodies++
          record({
            request,
            status: answer.status,
            problem: `${problem}: ${answer.text.slice(0, 300)}`,
          })
        }
        if (operation.id === 'iam.setAdminApiKey' && answer.status === 200 && request.body)
          adminKey = String(JSON.parse(request.body).key)
      } catch (error) {
        stats.hangs++
        const cause = (error as { cause?: unknown }).cause
        record({ request, status: 0, problem: `no answer: ${String(error)} (${String(cause)})` })
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker))
  return stats
}

/** A finding as one line: operation, method, path (cut) and the problem. */
export function describeFinding(finding: Finding): string {
  const { request } = finding
  const body = request.body === undefined ? '' : ` body=${request.body.slice(0, 200)}`
  return `${finding.status} ${request.operation} ${request.method} ${request.path.slice(0, 200)}${body} → ${finding.problem}`
}
