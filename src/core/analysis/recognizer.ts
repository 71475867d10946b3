// src/core/analysis/recognizer.ts: what a recognizer is: a function from a text to candidate detections
import type { Detection, Language } from './detector.ts'
import type { NameLexicon } from './names-data.ts'

export type Scan = Readonly<{
  text: string
  language: Language
  /** The language was neither given nor recognisable (a bare value): do not prefer it. */
  isLanguageGuessed: boolean
  names: NameLexicon
}>

/** Finds candidates of its entity types in a text; scores below 0.5 are kept for overlap decisions. */
export type Recognizer = (scan: Scan) => Detection[]

/** Runs a global, bounded pattern over the text and keeps what `accept` turns into detections. */
export function eachMatch(
  pattern: RegExp,
  text: string,
  accept: (match: RegExpExecArray) => Detection | undefined,
): Detection[] {
  const found: Detection[] = []
  pattern.lastIndex = 0
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    const detection = accept(match)
    if (detection !== undefined) found.push(detection)
    if (match[0].length === 0) pattern.lastIndex++
  }
  return found
}
