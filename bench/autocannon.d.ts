// bench/autocannon.d.ts: the part of autocannon's API the benchmarks use (the package ships no types)
declare module 'autocannon' {
  export type Options = {
    url: string
    method?: string
    headers?: Record<string, string>
    body?: string
    connections?: number
    duration?: number
    workers?: number
    /** Requests per second over all connections (paced load). */
    overallRate?: number
  }
  export type Histogram = { average: number; p50: number; p99: number; max: number }
  export type Result = {
    /** `total`: requests answered over the whole run. */
    requests: Histogram & { total: number }
    latency: Histogram
    non2xx: number
    errors: number
    timeouts: number
  }
  // biome-ignore lint/style/noDefaultExport: describes the package's own default export
  export default function autocannon(options: Options): Promise<Result>
}
