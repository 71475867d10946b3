// bench/pii/independent/build.ts: turns the hand-written cases (en.txt, es.txt, de.txt, fr.txt) into cases.jsonl
//
//   node bench/pii/independent/build.ts
//
// Each line of a .txt file is one text; `[[T|value]]` marks a labelled span of type T (short
// codes below), `\n` stands for a line break, `#` starts a comment line. Half the cases (by a
// hash of their id) form the part `independent-tune`, which may be tuned on; the other half, the
// part `independent`, is never looked at: the scorer prints its figures, never its errors.
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import type { Entity, EntityType, Language } from '../build.ts'
import type { Case } from '../generate.ts'

const CODES: Readonly<Record<string, EntityType>> = {
  N: 'NAME',
  E: 'EMAIL',
  P: 'PHONE',
  A: 'ADDRESS',
  C: 'CREDIT_DEBIT_NUMBER',
  S: 'SSN',
  I: 'INTERNATIONAL_BANK_ACCOUNT_NUMBER',
  IP: 'IP_ADDRESS',
  U: 'URL',
  D: 'DATE_OF_BIRTH',
  PP: 'PASSPORT_NUMBER',
  NI: 'UK_NATIONAL_INSURANCE_NUMBER',
  NHS: 'UK_NATIONAL_HEALTH_SERVICE_NUMBER',
  NIF: 'ES_NIF',
  NIR: 'FR_NIR',
  TAX: 'DE_TAX_ID',
}

const MARK = /\[\[([A-Z]+)\|([^\]]+)\]\]/g

export function parseLine(line: string): { text: string; entities: Entity[] } {
  const source = line.replaceAll('\\n', '\n')
  let text = ''
  let at = 0
  const entities: Entity[] = []
  for (const m of source.matchAll(MARK)) {
    const type = CODES[m[1] as string]
    if (type === undefined) throw new Error(`Unknown type code ${m[1]} in: ${line}`)
    text += source.slice(at, m.index)
    const value = m[2] as string
    entities.push({ type, begin: text.length, end: text.length + value.length })
    text += value
    at = m.index + m[0].length
  }
  text += source.slice(at)
  if (text.includes('[[') || text.includes(']]')) throw new Error(`Broken mark in: ${line}`)
  return { text, entities }
}

// The misses the brief named are tuned on, so they sit in the tuning half whatever their hash.
const NAMED_IN_THE_BRIEF = new Set([
  'Herr Thomas Müller hat angerufen.',
  'Call me on +44 7700 900123 tomorrow',
  'Order 123-45-6789 shipped',
])

const hash = (s: string) => createHash('sha256').update(s).digest().readUInt32BE(0)

export function buildIndependent(): Case[] {
  const cases: Case[] = []
  for (const language of ['en', 'es', 'de', 'fr'] as const satisfies readonly Language[]) {
    const lines = readFileSync(new URL(`./${language}.txt`, import.meta.url), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    lines.forEach((line, i) => {
      const id = `indep-${language}-${i}`
      const labelled = parseLine(line)
      const tune = NAMED_IN_THE_BRIEF.has(labelled.text) || hash(`independent:${id}`) % 2 === 0
      const part = tune ? 'independent-tune' : 'independent'
      cases.push({ id, language, template: 'hand', part, ...labelled })
    })
  }
  return cases
}

if (import.meta.main) {
  const cases = buildIndependent()
  writeFileSync(
    new URL('./cases.jsonl', import.meta.url),
    `${cases.map((c) => JSON.stringify(c)).join('\n')}\n`,
  )
  const count = (f: (c: Case) => boolean) => cases.filter(f).length
  console.log(
    `${cases.length} cases, ${count((c) => c.entities.length === 0)} without PII, ` +
      `${count((c) => c.part === 'independent-tune')} independent-tune, ` +
      `${count((c) => c.part === 'independent')} independent`,
  )
}
