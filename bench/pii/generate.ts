// bench/pii/generate.ts: writes the evaluation set bench/pii/cases.jsonl (deterministic; `node bench/pii/generate.ts`)
//
// Parts: a quarter of the templates (by a hash of their id) are held back whole, and so are 30%
// of the other cases (by a hash of the case id). Long documents of the tuning part are built only
// from tuning templates, so no held-back wording is ever seen while tuning.
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { build, type Labelled, type Language, type Part } from './build.ts'
import { DE } from './lang-de.ts'
import { EN } from './lang-en.ts'
import { ES } from './lang-es.ts'
import { FR } from './lang-fr.ts'
import { type Gen, generator, type Pack, type Template } from './pack.ts'
import { structuredClean, structuredPii } from './structured.ts'
import { seeded } from './values.ts'

export type Part_ = 'tune' | 'heldout' | 'independent-tune' | 'independent'
export type Case = Labelled &
  Readonly<{ id: string; language: Language; part: Part_; template: string }>

const hash = (s: string) => createHash('sha256').update(s).digest().readUInt32BE(0)
const isHeldTemplate = (id: string) => hash(`template:${id}`) % 4 === 0
const caseIsHeld = (id: string) => hash(`case:${id}`) % 10 < 3

const COUNTS = { short: 150, bare: 20, structured: 40, docs: 40 } as const

function docOf(
  g: Gen,
  pack: Pack,
  pii: readonly Template[],
  clean: readonly Template[],
  withPii: boolean,
): Part[] {
  const frame = g.pick(pack.frames)
  const parts: Part[] = [...frame.make(g)]
  const n = g.int(4, 12)
  const piiAt = new Set(
    withPii ? [g.int(0, n - 1), ...(g.chance(0.5) ? [g.int(0, n - 1)] : [])] : [],
  )
  for (let i = 0; i < n; i++) {
    const template = piiAt.has(i) ? g.pick(pii) : g.pick(clean)
    parts.push(...template.make(g), g.pick([' ', ' ', '\n', '\n\n']))
  }
  return parts
}

function casesOf(pack: Pack, seed: number): Case[] {
  const rng = seeded(seed)
  const g = generator(rng, () => pack)
  const cases: Case[] = []
  const add = (id: string, template: string, parts: Part[], held: boolean) => {
    const labelled = build(parts)
    cases.push({
      id,
      language: pack.language,
      template,
      part: held ? 'heldout' : 'tune',
      ...labelled,
    })
  }
  const pii = [...pack.pii]
  const clean = [...pack.clean]
  const structured = { pii: structuredPii(pack.language), clean: structuredClean(pack.language) }
  const bare = (list: readonly Template[]) => list.filter((x) => x.id.startsWith('bare-'))
  const rows = (list: readonly Template[]) => list.filter((x) => !x.id.startsWith('bare-'))
  const groups: readonly (readonly [string, readonly Template[], number])[] = [
    ['short-pii', pii, COUNTS.short],
    ['short-clean', clean, COUNTS.short],
    ['bare-pii', bare(structured.pii), COUNTS.bare],
    ['bare-clean', bare(structured.clean), COUNTS.bare],
    ['rows-pii', rows(structured.pii), COUNTS.structured],
    ['rows-clean', rows(structured.clean), COUNTS.structured],
  ]
  for (const [group, templates, count] of groups) {
    for (let i = 0; i < count; i++) {
      const template = templates[i % templates.length] as Template
      const id = `${pack.language}-${group}-${i}`
      const templateId = `${pack.language}:${template.id}`
      add(id, templateId, template.make(g), isHeldTemplate(templateId) || caseIsHeld(id))
    }
  }
  for (const withPii of [true, false]) {
    for (let i = 0; i < COUNTS.docs; i++) {
      const id = `${pack.language}-doc-${withPii ? 'pii' : 'clean'}-${i}`
      const held = caseIsHeld(id)
      const usable = (list: readonly Template[]) =>
        held ? list : list.filter((x) => !isHeldTemplate(`${pack.language}:${x.id}`))
      add(id, `${pack.language}:doc`, docOf(g, pack, usable(pii), usable(clean), withPii), held)
    }
  }
  return cases
}

export function generateCases(): Case[] {
  return [EN, ES, DE, FR].flatMap((pack, i) => casesOf(pack, 1000 + i))
}

if (import.meta.main) {
  const cases = generateCases()
  const file = new URL('./cases.jsonl', import.meta.url)
  writeFileSync(file, `${cases.map((c) => JSON.stringify(c)).join('\n')}\n`)
  const held = cases.filter((c) => c.part === 'heldout').length
  const withPii = cases.filter((c) => c.entities.length > 0).length
  console.log(`${cases.length} cases (${withPii} with PII, ${held} held back) → ${file.pathname}`)
}
