// bench/pii/metrics.ts: scores detections against the labelled set: pii flag, per-type F1 (string level), per language
import type { Case } from './generate.ts'

export type Detection = Readonly<{ type: string; begin: number; end: number; score: number }>

export type Counts = { tp: number; fp: number; fn: number }
export type Figures = Readonly<{ precision: number; recall: number; f1: number; support: number }>

const ratio = (a: number, b: number) => (b === 0 ? 1 : a / b)

export function figures(c: Counts): Figures {
  const precision = ratio(c.tp, c.tp + c.fp)
  const recall = ratio(c.tp, c.tp + c.fn)
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  return { precision, recall, f1, support: c.tp + c.fn }
}

const add = (c: Counts, gold: boolean, predicted: boolean) => {
  if (gold && predicted) c.tp++
  else if (predicted) c.fp++
  else if (gold) c.fn++
}

export type Report = Readonly<{
  cases: number
  flag: Figures
  types: ReadonlyMap<string, Figures>
  /** Mean F1 over the types that occur in the slice, in the labels or in the detections. */
  macroF1: number
  /** Spans: a detection counts when it overlaps a labelled span of the same type. */
  spans: Figures
}>

export function score(
  cases: readonly Case[],
  detections: readonly (readonly Detection[])[],
  threshold = 0.5,
): Report {
  const flag: Counts = { tp: 0, fp: 0, fn: 0 }
  const spans: Counts = { tp: 0, fp: 0, fn: 0 }
  const perType = new Map<string, Counts>()
  cases.forEach((c, i) => {
    const found = (detections[i] ?? []).filter((d) => d.score >= threshold)
    add(flag, c.entities.length > 0, found.length > 0)
    const gold = new Set<string>(c.entities.map((e) => e.type))
    const predicted = new Set(found.map((d) => d.type))
    for (const type of new Set([...gold, ...predicted])) {
      const counts = perType.get(type) ?? { tp: 0, fp: 0, fn: 0 }
      perType.set(type, counts)
      add(counts, gold.has(type), predicted.has(type))
    }
    const overlaps = (a: { begin: number; end: number }, b: { begin: number; end: number }) =>
      a.begin < b.end && b.begin < a.end
    for (const e of c.entities)
      add(
        spans,
        true,
        found.some((d) => d.type === e.type && overlaps(d, e)),
      )
    for (const d of found)
      if (!c.entities.some((e) => e.type === d.type && overlaps(d, e))) spans.fp++
  })
  const types = new Map([...perType].map(([type, counts]) => [type, figures(counts)]))
  const f1s = [...types.values()].map((f) => f.f1)
  const macroF1 = f1s.length === 0 ? 1 : f1s.reduce((a, b) => a + b, 0) / f1s.length
  return { cases: cases.length, flag: figures(flag), types, macroF1, spans: figures(spans) }
}

const pct = (x: number) => x.toFixed(3)

export function formatReport(title: string, report: Report): string {
  const lines = [
    `${title}: ${report.cases} texts`,
    `  pii flag   P ${pct(report.flag.precision)}  R ${pct(report.flag.recall)}  F1 ${pct(report.flag.f1)}`,
    `  macro F1 over entity types ${pct(report.macroF1)}   spans P ${pct(report.spans.precision)} R ${pct(report.spans.recall)} F1 ${pct(report.spans.f1)}`,
  ]
  const sorted = [...report.types].sort(([a], [b]) => (a < b ? -1 : 1))
  for (const [type, f] of sorted)
    lines.push(
      `    ${type.padEnd(36)} P ${pct(f.precision)}  R ${pct(f.recall)}  F1 ${pct(f.f1)}  (${f.support})`,
    )
  return lines.join('\n')
}
