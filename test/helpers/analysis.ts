// test/helpers/analysis.ts: calls of the analysis routes in API tests
import { API, type TestServer } from './server.ts'

export const ANALYSIS = `${API}/data/analysis`
export const REASON = 'reason=AppFunctionality'

export function analysisOf(server: TestServer, token?: string) {
  const post = (path: string, body: unknown, query = '') =>
    server.request('POST', `${ANALYSIS}/${path}?${REASON}${query}`, { body, token })
  return {
    contains: (body: unknown, query = '') => post('contains', body, query),
    detect: (body: unknown) => post('detect', body),
    locate: (body: unknown, query = '') => post('locate', body, query),
    protect: (collection: string, body: unknown, query = '') =>
      post('protect', body, `&collection=${collection}${query}`),
    reveal: (collection: string, body: unknown) =>
      post('reveal', body, `&collection=${collection}`),
  }
}
