// bench/latency.ts: sequential requests against a running node, and their latency percentiles
export type Latency = Readonly<{
  count: number
  p50: number
  p90: number
  p99: number
  mean: number
}>

export function percentiles(samples: readonly number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b)
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
  const mean = sorted.reduce((sum, x) => sum + x, 0) / Math.max(1, sorted.length)
  const round = (x: number) => Math.round(x * 100) / 100
  return {
    count: sorted.length,
    p50: round(at(0.5)),
    p90: round(at(0.9)),
    p99: round(at(0.99)),
    mean: round(mean),
  }
}

/** Runs `request(i)` one after another (after `warmup` unmeasured calls); times each in ms. */
export async function measure(
  count: number,
  request: (i: number) => Promise<Response>,
  warmup = 50,
): Promise<Latency> {
  for (let i = 0; i < warmup; i++) await check(await request(i))
  const samples: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const res = await request(warmup + i)
    await check(res)
    samples.push(performance.now() - started)
  }
  return percentiles(samples)
}

async function check(res: Response): Promise<void> {
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${res.status} ${text.slice(0, 300)}`)
}
