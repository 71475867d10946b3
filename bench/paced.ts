// bench/paced.ts: an evenly paced (open-loop) load on a worker thread, for latency at a given rate
import { Agent, request } from 'node:http'
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads'

export type PacedLoad = Readonly<{
  url: string
  method: 'GET' | 'POST'
  headers: Record<string, string>
  body?: string
  /** Requests per second, sent evenly: one every 1/rate s, whatever the answers do. */
  rate: number
  seconds: number
  connections: number
}>

export type PacedResult = Readonly<{ sent: number; failed: number; p50: number; p99: number }>

/**
 * autocannon's `overallRate` lets each connection send as fast as it can until it has sent its
 * share of the second, then waits for the next second: at "half the peak rate" the first half of
 * every second is full load. Here requests leave on a schedule (open loop) over keep-alive
 * connections, and each latency runs from the request's scheduled time, so a stalled server is
 * not hidden by requests that were never sent.
 */
export function pacedLoad(load: PacedLoad): Promise<PacedResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: load })
    worker.once('message', resolve)
    worker.once('error', reject)
  })
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0
}

async function run(load: PacedLoad): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: load.connections })
  // The first second warms up connections and the JIT, and is not recorded.
  const warmup = Math.round(load.rate)
  const total = warmup + Math.round(load.rate * load.seconds)
  const latencies: number[] = []
  let failed = 0
  const one = (isRecorded: boolean) =>
    new Promise<void>((done) => {
      const sentAt = performance.now()
      const req = request(
        load.url,
        { method: load.method, headers: load.headers, agent },
        (res) => {
          res.resume()
          res.on('end', () => {
            if ((res.statusCode ?? 0) >= 300) failed++
            if (isRecorded) latencies.push(performance.now() - sentAt)
            done()
          })
        },
      )
      req.on('error', () => {
        failed++
        done()
      })
      req.end(load.body)
    })
  const start = performance.now()
  const pending: Promise<void>[] = []
  for (let sent = 0; sent < total; ) {
    const due = Math.min(total, Math.floor(((performance.now() - start) * load.rate) / 1000) + 1)
    for (; sent < due; sent++) pending.push(one(sent >= warmup))
    await new Promise((resume) => setTimeout(resume, 1))
  }
  await Promise.all(pending)
  agent.destroy()
  latencies.sort((a, b) => a - b)
  return {
    sent: total - warmup,
    failed,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
  }
}

if (!isMainThread && parentPort !== null) {
  const port = parentPort
  run(workerData as PacedLoad).then((result) => port.postMessage(result))
}
