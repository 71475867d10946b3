// test/helpers/upstream.ts: a local HTTP server standing in for the third party an http_call or a bundle's fetch reaches
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { type AddressInfo, createServer as createNetServer } from 'node:net'

export type Seen = Readonly<{
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: string
}>

export type Upstream = {
  readonly origin: string
  readonly seen: Seen[]
  close(): Promise<void>
}

/**
 * Answers every request with a JSON echo of it, except: `/redirect?to=<url>&status=<n>` redirects,
 * `/loop` redirects to itself, `/status/<n>` answers that status, `/slow` never answers, `/big` answers 2 MiB, `/cookies` sets
 * two cookies. Every request is recorded in `seen`.
 */
export async function startUpstream(): Promise<Upstream> {
  const seen: Seen[] = []
  const open = new Set<IncomingMessage>()
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://upstream')
      const body = Buffer.concat(chunks).toString('utf8')
      seen.push({
        method: req.method ?? '',
        path: url.pathname + url.search,
        headers: req.headers,
        body,
      })
      if (url.pathname.endsWith('/slow')) {
        open.add(req)
        return
      }
      if (url.pathname.endsWith('/redirect')) {
        res.writeHead(Number(url.searchParams.get('status') ?? 302), {
          location: url.searchParams.get('to') ?? '/',
        })
        return res.end()
      }
      if (url.pathname.endsWith('/loop')) {
        res.writeHead(302, { location: url.pathname })
        return res.end()
      }
      if (url.pathname.endsWith('/big')) return res.end('x'.repeat(2 * 1_048_576))
      if (url.pathname.endsWith('/cookies')) {
        res.setHeader('set-cookie', ['a=1', 'b=2'])
        return res.end('cookies')
      }
      const status = /\/status\/(\d+)$/.exec(url.pathname)?.[1]
      res.writeHead(status ? Number(status) : 200, {
        'content-type': 'application/json',
        'x-upstream': 'yes',
      })
      res.end(JSON.stringify({ method: req.method, path: url.pathname + url.search, body }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    async close() {
      for (const req of open) req.socket.destroy()
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/** An origin on this machine that drops every connection at once (the peer is unreachable). */
export async function droppingOrigin(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createNetServer((socket) => socket.destroy())
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
