// bench/http.ts: calls to a benchmark server as the dev Admin, and a bulk load of the benchmark people
import { batchOf } from './data.ts'
import type { BenchServer } from './server.ts'

const BATCH = 1000
export const REASON = 'reason=AppFunctionality'
const HEADERS = { authorization: 'Bearer pvaultauth', 'content-type': 'application/json' }

export function call(
  server: BenchServer,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  const init = {
    method,
    headers: HEADERS,
    body: body === undefined ? undefined : JSON.stringify(body),
  }
  return fetch(`${server.baseUrl}/api/pvlt/1.0${path}`, init)
}

export async function expectOk(res: Response): Promise<string> {
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${res.status} ${text.slice(0, 300)}`)
  return text
}

/** Creates `collection` (a variant of COLLECTION named `people`) and adds `count` people to it. */
export async function loadPeople(
  server: BenchServer,
  collection: unknown,
  count: number,
): Promise<void> {
  await expectOk(await call(server, 'POST', '/ctl/collections', collection))
  for (let start = 0; start < count; start += BATCH) {
    const body = batchOf(start, Math.min(BATCH, count - start))
    const res = await call(server, 'POST', `/data/collections/people/bulk/objects?${REASON}`, body)
    if (!JSON.parse(await expectOk(res)).ok) throw new Error('bulk add failed')
    if (start % 20_000 === 0) process.stderr.write(`  loaded ${start}/${count}\r`)
  }
}
