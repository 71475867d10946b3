// src/core/analysis/recognizers/names.ts: names of private persons from the shape of the words, name lists and context
//
// A run of capitalised words (with particles such as "von" or "de la", initials and a leading
// title) is a candidate. Its score grows with the evidence: a title, a first name found in the
// national first-name lists, a second word (a surname), and context words before it (an
// introduction, a greeting, a sign-off, a field name). A public role before it, a public figure,
// a brand, or an organisation, product or street word in or right after it rules it out.
import type { Detection, Language } from '../detector.ts'
import type { NameLexicon } from '../names-data.ts'
import { PUBLIC_FIGURES, ROLE_WORDS } from '../public-figures.ts'
import type { Recognizer } from '../recognizer.ts'
import { clamp, wordsAfter, wordsBefore } from '../text.ts'
import {
  isAllCaps,
  isFirstName,
  isInitial,
  isParticle,
  isTitle,
  runsOf,
  startOf,
  type Word,
} from './name-runs.ts'
import {
  ACTING,
  BRANDS,
  GREETINGS,
  IN_PLACE,
  INTRODUCING,
  NAMING,
  NOT_PERSON,
  PLACE_PREPOSITIONS,
  SIGN_OFFS,
  SOCIAL,
} from './name-words.ts'

type Evidence = Readonly<{
  title: boolean
  listed: boolean
  listedInLanguage: boolean
  words: number
  introduced: boolean
  greeted: boolean
  social: boolean
  acting: boolean
}>

/** The score of a candidate from its evidence (see the file comment), calibrated on the tuning set. */
function scoreOf(e: Evidence): number {
  const context = e.introduced ? 0.2 : e.greeted ? 0.15 : e.social ? 0.1 : 0
  if (e.title) return clamp(0.75 + context)
  if (e.listed && e.words >= 2) return clamp(0.7 + context + (e.listedInLanguage ? 0.05 : 0))
  if (e.listed) return e.introduced ? 0.7 : e.greeted ? 0.65 : e.acting ? 0.6 : 0.25
  if (e.words >= 2) return e.introduced ? 0.62 : e.greeted ? 0.5 : 0.15
  return e.introduced ? 0.4 : 0.1
}

/** The key of a JSON member or form field whose value starts at `at`: `"name": "…"`, `Name: …`. */
function fieldName(text: string, at: number): string | undefined {
  let i = at - 1
  while (i >= 0 && (text[i] === ' ' || text[i] === '"' || text[i] === "'")) i--
  if (text[i] !== ':' && text[i] !== '=') return undefined
  const match = /["']?([\p{L}_]{2,30})["']?\s?[:=]\s?["']?$/u.exec(
    text.slice(Math.max(0, at - 40), at),
  )
  return match?.[1]?.toLowerCase()
}

/** The run starts a line after one that signs off ("Kind regards,"). */
function isSignedOff(text: string, begin: number): boolean {
  const lineStart = text.lastIndexOf('\n', begin - 1)
  if (lineStart < 0 || text.slice(lineStart + 1, begin).trim() !== '') return false
  const previous = text.slice(text.lastIndexOf('\n', lineStart - 1) + 1, lineStart).toLowerCase()
  return previous.length < 60 && [...SIGN_OFFS].some((w) => previous.includes(w))
}

/** Spoken to: the name opens the text or a line and a comma follows ("Jean-Luc, can you…"). */
function isAddressed(text: string, begin: number, end: number): boolean {
  const opensLine = begin === 0 || /\n\s*$/.test(text.slice(Math.max(0, begin - 3), begin))
  return opensLine && text[end] === ','
}

/** A chat line's speaker: the name opens a line and a colon follows ("Pablo: sí, en 5 min"). */
function isSpeaker(text: string, begin: number, end: number): boolean {
  const opensLine = begin === 0 || /\n\s*$/.test(text.slice(Math.max(0, begin - 3), begin))
  return opensLine && /^ ?: \S/.test(text.slice(end, end + 4))
}

/** A person's verb follows, after at most an auxiliary: "reported", "hat angerufen", "a appelé". */
function isActing(text: string, end: number): boolean {
  const [first, second] = wordsAfter(text, end, 2)
  if (first === undefined || !/^ \p{Ll}/u.test(text.slice(end, end + 2))) return false
  return ACTING.has(first) || (AUXILIARIES.has(first) && second !== undefined && ACTING.has(second))
}

const AUXILIARIES = new Set(['has', 'had', 'ha', 'hat', 'hatte', 'a', 'avait', 'just', 'already'])

/** A product or model number right after the run: `Model Y`, `Galaxy S23`, `Golf 8`. */
function isFollowedByModel(text: string, end: number): boolean {
  return /^\s?(?:\d|\p{Lu}(?:\d|\b)(?![.'’]))/u.test(text.slice(end, end + 3))
}

/** A name written in capitals ("JOHN SMITH"): two or three words, one of the first two listed. */
function capitalsCandidate(
  text: string,
  run: readonly Word[],
  names: NameLexicon,
): Detection | undefined {
  const [first, second] = run
  const last = run[run.length - 1]
  if (
    run.length < 2 ||
    run.length > 3 ||
    first === undefined ||
    second === undefined ||
    last === undefined
  )
    return undefined
  if (run.some((w) => w.text.replace(/\.$/, '').length < 3)) return undefined
  if (!names.isFirstName(first.text) && !names.isFirstName(second.text)) return undefined
  const full = text.slice(first.begin, last.end).toLowerCase()
  if (PUBLIC_FIGURES.has(full) || BRANDS.has(full)) return undefined
  const introduced = wordsBefore(text, first.begin, 2).some(
    (w) => INTRODUCING.has(w) || NAMING.has(w),
  )
  return { type: 'NAME', begin: first.begin, end: last.end, score: introduced ? 0.75 : 0.6 }
}

/** Whether the words right before `at` say a person follows (or a field holds the name alone). */
function isIntroduced(
  text: string,
  at: number,
  runEnd: number,
  before: readonly string[],
): boolean {
  const key = fieldName(text, at)
  const isKeyed = key !== undefined && (INTRODUCING.has(key) || NAMING.has(key))
  const isNear = before.slice(-2).some((w) => INTRODUCING.has(w) || NAMING.has(w))
  // After a label (`Customer: …`) the value must be the name alone: a chat speaker's label is
  // followed by a sentence, a form field or JSON member by the name and its end.
  const isLabelled = /[:=]\s?["']?$/.test(text.slice(Math.max(0, at - 4), at))
  const isValueAlone = /^\s*(?:$|["',;|}\n])/.test(text.slice(runEnd, runEnd + 3))
  return (isNear || isKeyed) && (!isLabelled || isValueAlone)
}

/** The words of the name: at most five from `start`, without trailing particles. */
function nameSpan(run: readonly Word[], start: number) {
  let words = run.slice(start, start + 5)
  while (words.length > 1 && isParticle(words[words.length - 1]?.text ?? ''))
    words = words.slice(0, -1)
  const nameWords = words.filter((w) => !isTitle(w.text) && !isParticle(w.text))
  return { first: words[0] as Word, last: words[words.length - 1] as Word, nameWords }
}

/** A model number after it, acronyms, a public figure or brand, a public role, a place. */
function isRuledOut(text: string, span: ReturnType<typeof nameSpan>, before: readonly string[]) {
  const { first, last, nameWords } = span
  if (nameWords.length === 0 || isFollowedByModel(text, last.end)) return true
  // All-caps words (acronyms) only as a surname written before the first name.
  if (nameWords.some((w, i) => isAllCaps(w.text) && !(i === 0 && nameWords.length > 1))) return true
  const full = text
    .slice((nameWords[0] as Word).begin, last.end)
    .replace(/\.$/, '')
    .toLowerCase()
  if (BRANDS.has(full)) return true
  // "Herr Thomas Müller hat angerufen": a courtesy title speaks of a private person, even one who
  // shares a public figure's name; a public figure in the public role goes without one.
  if (PUBLIC_FIGURES.has(full) && !isTitle(first.text)) return true
  if (wordsBefore(text, first.begin, 6).some((w) => ROLE_WORDS.has(w))) return true
  const preposition = before[before.length - 1] ?? ''
  const isPlace =
    IN_PLACE.has(preposition) || (nameWords.length === 1 && PLACE_PREPOSITIONS.has(preposition))
  return isPlace && !isTitle(first.text)
}

function candidate(
  text: string,
  run: readonly Word[],
  names: NameLexicon,
  language: Language,
): Detection | undefined {
  if (run.some((w) => NOT_PERSON.has(w.text.replace(/\.$/, '').toLowerCase()))) return undefined
  if (run.every((w) => isAllCaps(w.text))) return capitalsCandidate(text, run, names)
  const listed = startOf(run, names)
  // Family name first ("Zhang Wei", "Oberhuber Franziska"): the listed name ends a short run.
  const isFamilyFirst =
    listed !== undefined && listed > 0 && listed === run.length - 1 && run.length <= 3
  const start = isFamilyFirst ? 0 : listed
  const at = (run[start ?? 0] as Word).begin
  const before = wordsBefore(text, at, 4)
  const introduced = isIntroduced(text, at, (run[run.length - 1] as Word).end, before)
  // Without a listed first name, a word right before must say a person follows (a verb after
  // is not enough: "Goldman Sachs said", "Red Hat joined" are companies).
  if (start === undefined && !introduced) return undefined
  const span = nameSpan(run, start ?? 0)
  if (isRuledOut(text, span, before)) return undefined
  const { first, last, nameWords } = span
  const head =
    (isFamilyFirst ? run[listed] : undefined) ??
    nameWords.find((w) => !isAllCaps(w.text)) ??
    (nameWords[0] as Word)
  const evidence: Evidence = {
    title: isTitle(first.text),
    listed: isFirstName(names, head.text),
    listedInLanguage: isFirstName(names, head.text, language),
    words: nameWords.length,
    introduced,
    greeted:
      GREETINGS.has(before[before.length - 1] ?? '') ||
      isSignedOff(text, first.begin) ||
      isAddressed(text, first.begin, last.end) ||
      isSpeaker(text, first.begin, last.end),
    social: before.some((w) => SOCIAL.has(w) || SIGN_OFFS.has(w)),
    acting: isActing(text, last.end),
  }
  const end =
    last.text.endsWith('.') && !isInitial(last.text) && !evidence.title ? last.end - 1 : last.end
  return { type: 'NAME', begin: first.begin, end, score: scoreOf(evidence) }
}

export const recognizeNames: Recognizer = ({ text, names, language }) => {
  const found: Detection[] = []
  for (const run of runsOf(text, names)) {
    const detection = candidate(text, run, names, language)
    if (detection !== undefined) found.push(detection)
  }
  return found
}
