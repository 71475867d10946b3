// bench/pii/score.ts: runs the built-in detector over the evaluation set and prints its figures
//
//   node bench/pii/score.ts                   # the tuning part
//   node bench/pii/score.ts --part heldout    # the held-back part (figures only, never the errors)
//   node bench/pii/score.ts --errors 40       # the first 40 wrong texts of the tuning part
//   node bench/pii/score.ts --part independent-tune [--errors 40]   # hand-written set, tuning half
//   node bench/pii/score.ts --part independent # hand-written set, never-looked-at half (figures only)
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { createLocalDetector } from '../../src/core/analysis/local-detector.ts'
import type { Case } from './generate.ts'
import { type Detection, formatReport, score } from './metrics.ts'

/** The generated set (parts `tune` and `heldout`), or the hand-written independent set. */
export function loadCases(set: 'generated' | 'independent' = 'generated'): Case[] {
  const file = set === 'generated' ? './cases.jsonl' : './independent/cases.jsonl'
  const text = readFileSync(new URL(file, import.meta.url), 'utf8')
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Case)
}

export async function detectAll(cases: readonly Case[]): Promise<Detection[][]> {
  const detector = createLocalDetector()
  const out: Detection[][] = []
  for (const c of cases) out.push([...(await detector.detect(c.text, { language: undefined }))])
  return out
}

function showErrors(
  cases: readonly Case[],
  found: readonly Detection[][],
  limit: number,
  type?: string,
) {
  let shown = 0
  cases.forEach((c, i) => {
    if (shown >= limit) return
    const got = (found[i] ?? []).filter((d) => d.score >= 0.5)
    const gold = new Set(c.entities.map((e) => `${e.type}`))
    const predicted = new Set(got.map((d) => d.type))
    const wrong = [...new Set([...gold, ...predicted])].filter(
      (t) => gold.has(t) !== predicted.has(t),
    )
    if (wrong.length === 0 || (type !== undefined && !wrong.includes(type))) return
    shown++
    console.log(
      `\n[${c.id}] ${JSON.stringify(c.text.length > 600 ? `${c.text.slice(0, 600)}…` : c.text)}`,
    )
    for (const e of c.entities)
      console.log(`   gold ${e.type} ${JSON.stringify(c.text.slice(e.begin, e.end))}`)
    for (const d of found[i] ?? [])
      console.log(
        `   got  ${d.type} ${d.score.toFixed(2)} ${JSON.stringify(c.text.slice(d.begin, d.end))}`,
      )
  })
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      part: { type: 'string', default: 'tune' },
      errors: { type: 'string' },
      type: { type: 'string' },
      language: { type: 'string' },
    },
  })
  const all = values.part?.startsWith('independent')
    ? loadCases('independent')
    : values.part === 'all'
      ? [...loadCases(), ...loadCases('independent')]
      : loadCases()
  const cases = all.filter(
    (c) =>
      (values.part === 'all' || c.part === values.part) &&
      (values.language === undefined || c.language === values.language),
  )
  const started = performance.now()
  const found = await detectAll(cases)
  const ms = performance.now() - started
  console.log(formatReport(`all languages, part ${values.part}`, score(cases, found)))
  for (const language of ['en', 'es', 'de', 'fr']) {
    const idx = cases.flatMap((c, i) => (c.language === language ? [i] : []))
    if (idx.length === 0) continue
    const report = score(
      idx.map((i) => cases[i] as Case),
      idx.map((i) => found[i] ?? []),
    )
    console.log(formatReport(`\n${language}`, report))
  }
  console.log(
    `\n${cases.length} texts in ${ms.toFixed(0)} ms (one process, includes loading the name lists)`,
  )
  if (values.errors !== undefined) {
    if (values.part !== 'tune' && values.part !== 'independent-tune')
      throw new Error('Errors are shown for the tuning parts only.')
    showErrors(cases, found, Number(values.errors), values.type)
  }
}
