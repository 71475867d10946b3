// bench/memory-probe.ts: where a bench node's resident memory is (smaps, threads, V8 heap through the inspector)
import { readdirSync, readFileSync } from 'node:fs'

const MB = 1024 * 1024

/** Resident kB per kind of mapping, from /proc/<pid>/smaps. */
export type MappingRss = Readonly<Record<string, number>>

/**
 * Sorts the node's mappings by what they are: glibc's main arena (`[heap]`), thread stacks,
 * other arenas and V8 pages (anonymous; V8 reserves its pages in 256 KiB chunks inside large
 * reservations, glibc's thread arenas are 64 MiB reservations), file-backed code and data.
 */
export function mappingRss(pid: number): MappingRss {
  const totals: Record<string, number> = {}
  let kind = 'other'
  let sizeKb = 0
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (header) {
      const name = header[3] ?? ''
      sizeKb =
        (Number.parseInt(header[2] ?? '0', 16) - Number.parseInt(header[1] ?? '0', 16)) / 1024
      if (name === '[heap]') kind = 'malloc main arena [heap]'
      else if (name.startsWith('[stack')) kind = 'main stack'
      else if (name.includes('sqlite') || name.endsWith('.db') || name.endsWith('-shm'))
        kind = 'sqlite files (mmap)'
      else if (name.includes('/node')) kind = 'node binary'
      else if (name !== '') kind = 'other files'
      else if (sizeKb === 65536 || sizeKb === 131072)
        kind = 'anon 64/128 MiB (malloc thread arenas)'
      else kind = 'anon (V8 heap, stacks, mmap)'
      continue
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    if (rss) totals[kind] = (totals[kind] ?? 0) + Number(rss[1])
  }
  return totals
}

/** The node's threads by name (/proc/<pid>/task/*\/comm): workers show as extra V8 threads. */
export function threadNames(pid: number): Record<string, number> {
  const names: Record<string, number> = {}
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8').trim()
      names[name] = (names[name] ?? 0) + 1
    } catch {
      // The thread ended meanwhile.
    }
  }
  return names
}

type Inspector = {
  evaluate(expression: string): Promise<unknown>
  /** How many live instances of a class, their bytes, and the largest (`ArrayBuffer`, …). */
  largest(prototype: string, length: string): Promise<number[]>
  close(): void
}

/** Opens the node's inspector (SIGUSR1, on the port its `--inspect-port` names). */
async function connect(pid: number, port: number): Promise<Inspector> {
  process.kill(pid, 'SIGUSR1')
  let url: string | undefined
  for (let attempt = 0; attempt < 50 && url === undefined; attempt++) {
    try {
      const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
        webSocketDebuggerUrl: string
      }[]
      url = list[0]?.webSocketDebuggerUrl
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  if (url === undefined) throw new Error(`no inspector on port ${port}`)
  const socket = new WebSocket(url)
  await new Promise((resolve, reject) => {
    socket.onopen = resolve
    socket.onerror = reject
  })
  let nextId = 1
  const waiting = new Map<number, (value: unknown) => void>()
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown }
    if (message.id !== undefined) waiting.get(message.id)?.(message.result)
  }
  function send(method: string, params: object): Promise<unknown> {
    const id = nextId++
    socket.send(JSON.stringify({ id, method, params }))
    return new Promise((resolve) => waiting.set(id, resolve))
  }
  return {
    async evaluate(expression) {
      const result = (await send('Runtime.evaluate', {
        expression,
        returnByValue: true,
        awaitPromise: true,
      })) as { result?: { value?: unknown } }
      return result.result?.value
    },
    async largest(prototype, length) {
      const found = (await send('Runtime.evaluate', { expression: prototype })) as {
        result: { objectId: string }
      }
      const objects = (await send('Runtime.queryObjects', {
        prototypeObjectId: found.result.objectId,
      })) as { objects: { objectId: string } }
      const sizes = (await send('Runtime.callFunctionOn', {
        objectId: objects.objects.objectId,
        functionDeclaration: `function () {
          const sizes = this.map((o) => ${length}).sort((a, b) => b - a)
          return [this.length, sizes.reduce((a, b) => a + b, 0), ...sizes.slice(0, 6)]
        }`,
        returnByValue: true,
      })) as { result: { value: number[] } }
      return sizes.result.value
    },
    close: () => socket.close(),
  }
}

const V8_FIGURES = `(() => {
  const v8 = process.getBuiltinModule('node:v8')
  const m = process.memoryUsage()
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics()
    .map((s) => [s.space_name, [s.space_size, s.space_used_size]]))
  return { ...m, spaces }
})()`

/** One line of figures: RSS by mapping kind, threads, and V8's own view of the heap. */
export async function probe(pid: number, port: number | undefined): Promise<string> {
  const mb = (kb: number) => `${(kb / 1024).toFixed(1)}`
  const maps = Object.entries(mappingRss(pid))
    .sort((a, b) => b[1] - a[1])
    .map(([kind, kb]) => `${kind} ${mb(kb)}`)
    .join(', ')
  const lines = [`    smaps (MB): ${maps}`, `    threads: ${JSON.stringify(threadNames(pid))}`]
  if (port !== undefined) {
    const inspector = await connect(pid, port)
    try {
      const v8 = (await inspector.evaluate(V8_FIGURES)) as NodeJS.MemoryUsage & {
        spaces: Record<string, [number, number]>
      }
      const f = (bytes: number) => (bytes / MB).toFixed(1)
      const spaces = Object.entries(v8.spaces)
        .filter(([, [size]]) => size > MB / 2)
        .map(([name, [size, used]]) => `${name} ${f(size)}/${f(used)}`)
        .join(', ')
      const buffers = await inspector.largest('ArrayBuffer.prototype', 'o.byteLength')
      const shared = await inspector.largest('SharedArrayBuffer.prototype', 'o.byteLength')
      const wasm = await inspector.largest('WebAssembly.Memory.prototype', 'o.buffer.byteLength')
      const sizes = ([count, total, ...top]: number[]) =>
        `${count} (${f(total ?? 0)} MB; largest ${top.map(f).join(' ')})`
      lines.push(
        `    live ArrayBuffers: ${sizes(buffers)}; SharedArrayBuffers: ${sizes(shared)}; WebAssembly memories: ${sizes(wasm)}`,
      )
      lines.push(
        `    v8 (MB): rss ${f(v8.rss)}, heapTotal ${f(v8.heapTotal)}, heapUsed ${f(v8.heapUsed)}, external ${f(v8.external)}, arrayBuffers ${f(v8.arrayBuffers)}; spaces reserved/used: ${spaces}`,
      )
    } finally {
      inspector.close()
    }
  }
  return lines.join('\n')
}
