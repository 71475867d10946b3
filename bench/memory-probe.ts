// bench/memory-probe.ts: where a bench node's resident memory is (smaps, threads, V8 heap through the inspector)
import { readdirSync, readFileSync } from 'node:fs'

const MB = 1024 * 1024

/** Resident kB per kind of mapping, from /proc/<pid>/smaps. */
export type MappingRss = Readonly<Record<string, number>>

type Mapping = { start: number; end: number; name: string; rssKb: number }

const ARENA_BYTES = 64 * 1024 * 1024

function mappings(pid: number): Mapping[] {
  const list: Mapping[] = []
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (header) {
      const start = Number.parseInt(header[1] ?? '0', 16)
      const end = Number.parseInt(header[2] ?? '0', 16)
      list.push({ start, end, name: header[3] ?? '', rssKb: 0 })
      continue
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line)
    const last = list.at(-1)
    if (rss && last) last.rssKb = Number(rss[1])
  }
  return list
}

function fileKind(name: string): string {
  if (name === '[heap]') return 'malloc main arena [heap]'
  if (name.startsWith('[stack')) return 'main stack'
  if (name.endsWith('.db') || name.endsWith('-shm') || name.endsWith('-wal')) return 'sqlite files'
  if (name.endsWith('/node')) return 'node binary'
  return 'other files'
}

/**
 * Sorts the node's mappings by what they are: glibc's main arena (`[heap]`); glibc's thread
 * arenas (anonymous, 64 MiB-aligned runs of 64 MiB: the other threads' malloc); other anonymous
 * memory (V8's heap pages, thread stacks, large malloc chunks mapped on their own); files.
 */
export function mappingRss(pid: number): MappingRss {
  const totals: Record<string, number> = {}
  const add = (kind: string, kb: number) => {
    totals[kind] = (totals[kind] ?? 0) + kb
  }
  const list = mappings(pid)
  for (let i = 0; i < list.length; i++) {
    const mapping = list[i] as Mapping
    if (mapping.name !== '') {
      add(fileKind(mapping.name), mapping.rssKb)
      continue
    }
    // A thread arena: mmap'd 64 MiB-aligned, used part read-write, the rest PROT_NONE.
    let end = mapping.end
    let rss = mapping.rssKb
    let j = i
    while (
      end - mapping.start < ARENA_BYTES &&
      list[j + 1]?.start === end &&
      list[j + 1]?.name === ''
    ) {
      j++
      end = (list[j] as Mapping).end
      rss += (list[j] as Mapping).rssKb
    }
    if (mapping.start % ARENA_BYTES === 0 && end - mapping.start === ARENA_BYTES) {
      add('malloc thread arenas', rss)
      i = j
    } else add('anon (V8 heap, stacks, large mmap)', mapping.rssKb)
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
