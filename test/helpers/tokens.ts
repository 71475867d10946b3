// test/helpers/tokens.ts: calls of the tokens API for tests, and the collection they use
import { API, type TestServer } from './server.ts'

export const REASON = 'reason=AppFunctionality'

/** A DATA collection with a card number, a name and a plain city. */
export const CARDS = {
  name: 'cards',
  type: 'DATA',
  properties: [
    { name: 'card', data_type_name: 'CC_NUMBER' },
    { name: 'name', data_type_name: 'NAME', is_nullable: true },
    { name: 'city', data_type_name: 'STRING', is_encrypted: false, is_nullable: true },
  ],
}

const join = (query: string) => (query ? `&${query}` : '')

export function tokensOf(server: TestServer, collection: string) {
  const base = `${API}/data/collections/${collection}`
  return {
    tokenize: (body: unknown, query = '', headers?: Record<string, string>) =>
      server.request('POST', `${base}/tokens?${REASON}${join(query)}`, { body, headers }),
    detokenize: (query: string, headers?: Record<string, string>) =>
      server.request('GET', `${base}/tokens?${REASON}${join(query)}`, { headers }),
    search: (body: unknown, query = '') =>
      server.request('POST', `${base}/query/tokens?${REASON}${join(query)}`, { body }),
    update: (query: string, body: unknown) =>
      server.request('PATCH', `${base}/tokens?${REASON}${join(query)}`, { body }),
    remove: (query: string) => server.request('DELETE', `${base}/tokens?${REASON}${join(query)}`),
    rotate: (query: string) =>
      server.request('POST', `${base}/rotate/tokens?${REASON}${join(query)}`),
    transaction: (id: string) => server.request('GET', `${base}/transaction_id/${id}?${REASON}`),
    count: () => server.request('GET', `${base}/count/tokens?${REASON}`),
    export: (query = '') => server.request('GET', `${base}/export/tokens?${REASON}${join(query)}`),
    import: (body: unknown, exportKey: string, headers?: Record<string, string>) =>
      server.request(
        'POST',
        `${base}/import/tokens?${REASON}&export_key=${encodeURIComponent(exportKey)}`,
        { body, headers },
      ),
  }
}
