// test/helpers/tcp-proxy.ts: a TCP proxy in front of the test PostgreSQL that can refuse, cut and freeze connections
import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net'

type Pair = { readonly client: Socket; readonly upstream: Socket; isFrozen: boolean }

export type TcpProxy = {
  readonly port: number
  /** Stops listening: new connections are refused (ECONNREFUSED). */
  refuse(): Promise<void>
  /** Listens again on the same port; new connections pass. */
  accept(): Promise<void>
  /** Closes every open connection at once (both sides), as a database restart or a reset would. */
  cut(): void
  /** Every open connection, and every new one while `isFreezingNew`, stops carrying bytes for good. */
  freeze(): void
  /** New connections carry bytes again; connections frozen before stay frozen. */
  thawNew(): void
  /** Connections frozen and not yet closed by the service. */
  frozenOpen(): number
  close(): Promise<void>
}

/** Forwards 127.0.0.1:<port> to `target`, both directions by plain `data` handlers. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<Pair>()
  let isFreezingNew = false
  let port = 0
  let server: Server | undefined

  // A frozen pair keeps reading (so it sees the service close its end) but forwards nothing.
  function freezePair(pair: Pair) {
    pair.isFrozen = true
  }

  function onConnection(client: Socket) {
    const upstream = tcpConnect(target.port, target.host)
    const pair: Pair = { client, upstream, isFrozen: false }
    pairs.add(pair)
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('data', (chunk) => {
      if (!pair.isFrozen) upstream.write(chunk)
    })
    upstream.on('data', (chunk) => {
      if (!pair.isFrozen) client.write(chunk)
    })
    for (const socket of [client, upstream]) {
      socket.on('error', end)
      socket.on('close', end)
    }
    if (isFreezingNew) freezePair(pair)
  }

  async function listen(): Promise<void> {
    server = createServer(onConnection)
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject)
      server?.listen(port, '127.0.0.1', () => resolve())
    })
    const address = server.address()
    if (address !== null && typeof address === 'object') port = address.port
  }

  async function stopListening(): Promise<void> {
    const current = server
    server = undefined
    if (current !== undefined) await new Promise<void>((resolve) => current.close(() => resolve()))
  }

  function cut() {
    for (const pair of [...pairs]) {
      pairs.delete(pair)
      pair.client.destroy()
      pair.upstream.destroy()
    }
  }

  await listen()
  return {
    get port() {
      return port
    },
    async refuse() {
      // close() waits for open connections: cut them first, as a stopped server would.
      const closing = stopListening()
      cut()
      await closing
    },
    accept: listen,
    cut,
    freeze() {
      isFreezingNew = true
      for (const pair of pairs) freezePair(pair)
    },
    thawNew() {
      isFreezingNew = false
    },
    frozenOpen: () => [...pairs].filter((pair) => pair.isFrozen).length,
    async close() {
      const closing = stopListening()
      cut()
      await closing
    },
  }
}
