// src/core/analysis/recognizers/names.ts: names of private persons from the shape of the words, name lists and context
//
// A run of capitalised words (with particles such as "von" or "de la", initials and a leading
// title) is a candidate. Its score grows with the evidence: a title, a first name found in the
// national first-name lists, a second word (a surname), and context words before it (an
// introduction, a greeting, a sign-off, a field name). A public role before it, a public figure,
// a brand, or an organisation, product or street word in or right after it rules it out.
import type { Detection, Language } from '../detector.ts'
import { FUNCTION_WORDS } from '../language.ts'
import type { NameLexicon } from '../names-data.ts'
import { PUBLIC_FIGURES, ROLE_WORDS } from '../public-figures.ts'
import type { Recognizer } from '../recognizer.ts'
import { clamp, wordsBefore } from '../text.ts'
import {
  BRANDS,
  GREETINGS,
  INTRODUCING,
  NAMING,
  NON_NAME_WORDS,
  NOT_PERSON,
  PLACE_PREPOSITIONS,
  SIGN_OFFS,
  SOCIAL,
} from './name-words.ts'

const WORD = /\p{L}[\p{L}\p{M}'’-]*\.?/gu

const TITLES = new Set(
  'mr mrs ms miss mx dr prof sir herr frau sr sra srta d dña don doña m mme mlle monsieur madame mademoiselle señor señora'.split(
    ' ',
  ),
)
const PARTICLES = new Set(
  'von van der den de del della di da du le la y zu dos das ten ter'.split(' '),
)

type Word = Readonly<{ text: string; begin: number; end: number }>

const bare = (w: string) => w.replace(/\.$/, '').toLowerCase()
const isCapitalised = (w: string) => /^\p{Lu}/u.test(w)
const isInitial = (w: string) => /^\p{Lu}\.$/u.test(w)
const isAllCaps = (w: string) => /^\p{Lu}[\p{Lu}'’-]+\.?$/u.test(w)
const isTitle = (w: string) => TITLES.has(bare(w))
/** `PlayStation`, `iPhone`: capitals inside a word mark a product (but McAllister, DeShawn, O'Neil). */
const isCamelCase = (w: string) =>
  /\p{Ll}{2}\p{Lu}/u.test(w.replace(/^(?:Mc|Mac|De|Le|La|Di|Van|O['’])/u, ''))

/**
 * Whether a word may stand in a name run: capitalised (not a function word), a particle (also
 * capitalised inside a run: "Nathalie Le Goff"), a title.
 */
function fits(word: string, isInRun: boolean): boolean {
  // Most words are lower case: settle those first, without building a lower-cased copy.
  const code = word.charCodeAt(0)
  const isUpper = code < 128 ? code >= 65 && code <= 90 : isCapitalised(word)
  if (!isUpper) return PARTICLES.has(word) || isTitle(word)
  const lower = bare(word)
  if (isTitle(word) || (isInRun && PARTICLES.has(lower))) return true
  if (isCamelCase(word)) return false
  return (
    !FUNCTION_WORDS.has(lower) &&
    !NON_NAME_WORDS.has(lower) &&
    !INTRODUCING.has(lower) &&
    !GREETINGS.has(lower) &&
    !ROLE_WORDS.has(lower)
  )
}

const isParticle = (w: string) => PARTICLES.has(w.toLowerCase())

/** Consecutive words separated by one space that can belong to a name. */
function runsOf(text: string, names: NameLexicon): Word[][] {
  const runs: Word[][] = []
  let run: Word[] = []
  WORD.lastIndex = 0
  for (let m = WORD.exec(text); m !== null; m = WORD.exec(text)) {
    const word = { text: m[0], begin: m.index, end: m.index + m[0].length }
    const last = run[run.length - 1]
    const isSpaced = last !== undefined && word.begin === last.end + 1 && text[last.end] === ' '
    // A word ending in a full stop ends the run, unless it is a title or an initial.
    const joined =
      isSpaced && (!last.text.endsWith('.') || isTitle(last.text) || isInitial(last.text))
    // "Oberhuber, Franziska": a surname, a comma and a listed first name are one name.
    const isSurnameFirst =
      run.length === 1 &&
      last !== undefined &&
      word.begin === last.end + 2 &&
      text.slice(last.end, word.begin) === ', ' &&
      isFirstName(names, word.text)
    if ((joined || isSurnameFirst) && fits(word.text, true)) run.push(word)
    else {
      if (run.length > 0) runs.push(run)
      // A particle does not start a name ("la Gran Vía", "de Sevilla").
      run = fits(word.text, false) && !PARTICLES.has(word.text) ? [word] : []
    }
  }
  if (run.length > 0) runs.push(run)
  return runs
}

function isFirstName(names: NameLexicon, word: string, language?: Language): boolean {
  const plain = word.replace(/\.$/, '')
  const lower = plain.toLowerCase()
  if (isAllCaps(plain) || plain.length < 2 || NOT_PERSON.has(lower) || isParticle(lower))
    return false
  if (FUNCTION_WORDS.has(lower) || NON_NAME_WORDS.has(lower)) return false
  const head = plain.split(/[-’']/)[0] ?? ''
  return head.length >= 2 && names.isFirstName(head, language)
}

/** Where the name starts in a run: a title, a listed first name, or an all-caps surname before one. */
function startOf(run: readonly Word[], names: NameLexicon): number | undefined {
  for (let i = 0; i < run.length; i++) {
    const word = run[i] as Word
    if (isTitle(word.text) && i + 1 < run.length) return i
    if (isFirstName(names, word.text)) {
      const previous = run[i - 1]
      return previous !== undefined && isAllCaps(previous.text) ? i - 1 : i
    }
  }
  return undefined
}

type Evidence = Readonly<{
  title: boolean
  listed: boolean
  listedInLanguage: boolean
  words: number
  introduced: boolean
  greeted: boolean
  social: boolean
}>

/** The score of a candidate from its evidence (see the file comment), calibrated on the tuning set. */
function scoreOf(e: Evidence): number {
  const context = e.introduced ? 0.2 : e.greeted ? 0.15 : e.social ? 0.1 : 0
  if (e.title) return clamp(0.75 + context)
  if (e.listed && e.words >= 2) return clamp(0.7 + context + (e.listedInLanguage ? 0.05 : 0))
  if (e.listed) return e.introduced ? 0.7 : e.greeted ? 0.65 : 0.25
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

function candidate(
  text: string,
  run: readonly Word[],
  names: NameLexicon,
  language: Language,
): Detection | undefined {
  if (run.some((w) => NOT_PERSON.has(bare(w.text)))) return undefined
  if (run.every((w) => isAllCaps(w.text))) return capitalsCandidate(text, run, names)
  const listed = startOf(run, names)
  // Family name first ("Zhang Wei", "Oberhuber Franziska"): the listed name ends a short run.
  const isFamilyFirst =
    listed !== undefined && listed > 0 && listed === run.length - 1 && run.length <= 3
  let start = isFamilyFirst ? 0 : listed
  const at = (run[start ?? 0] as Word).begin
  const before = wordsBefore(text, at, 4)
  const key = fieldName(text, at)
  const runEnd = (run[run.length - 1] as Word).end
  // After a label (`Customer: …`) the value must be the name alone: a chat speaker's label is
  // followed by a sentence, a form field or JSON member by the name and its end.
  const isLabelled = /[:=]\s?["']?$/.test(text.slice(Math.max(0, at - 4), at))
  const isValueAlone = /^\s*(?:$|["',;|}\n])/.test(text.slice(runEnd, runEnd + 3))
  const isKeyed = key !== undefined && (INTRODUCING.has(key) || NAMING.has(key))
  const introduced =
    (before.slice(-2).some((w) => INTRODUCING.has(w) || NAMING.has(w)) || isKeyed) &&
    (!isLabelled || isValueAlone)
  if (start === undefined) {
    // Without a listed first name, a word right before must say a person follows.
    if (!introduced) return undefined
    start = 0
  }
  let words = run.slice(start, start + 5)
  while (words.length > 1 && isParticle(words[words.length - 1]?.text ?? ''))
    words = words.slice(0, -1)
  const first = words[0] as Word
  const last = words[words.length - 1] as Word
  const nameWords = words.filter((w) => !isTitle(w.text) && !isParticle(w.text))
  if (nameWords.length === 0 || isFollowedByModel(text, last.end)) return undefined
  // All-caps words (acronyms) only as a surname written before the first name.
  if (nameWords.some((w, i) => isAllCaps(w.text) && !(i === 0 && nameWords.length > 1)))
    return undefined
  const full = text
    .slice((nameWords[0] as Word).begin, last.end)
    .replace(/\.$/, '')
    .toLowerCase()
  if (PUBLIC_FIGURES.has(full) || BRANDS.has(full)) return undefined
  if (wordsBefore(text, first.begin, 6).some((w) => ROLE_WORDS.has(w))) return undefined
  const isPlace = nameWords.length === 1 && PLACE_PREPOSITIONS.has(before[before.length - 1] ?? '')
  if (isPlace && !isTitle(first.text)) return undefined
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
    greeted: GREETINGS.has(before[before.length - 1] ?? '') || isSignedOff(text, first.begin),
    social: before.some((w) => SOCIAL.has(w) || SIGN_OFFS.has(w)),
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
