// src/core/analysis/recognizers/name-runs.ts: runs of words that can form a name, and where a name starts in a run
import type { Language } from '../detector.ts'
import { FUNCTION_WORDS } from '../language.ts'
import type { NameLexicon } from '../names-data.ts'
import { ROLE_WORDS } from '../public-figures.ts'
import { GREETINGS, INTRODUCING, NON_NAME_WORDS, NOT_PERSON } from './name-words.ts'

const WORD = /\p{L}[\p{L}\p{M}'’-]*\.?/gu

const TITLES = new Set(
  'mr mrs ms miss mx dr dra prof sir herr frau sr sra srta d dña don doña lic ing m mme mlle monsieur madame mademoiselle señor señora familie fam famille'.split(
    ' ',
  ),
)
const PARTICLES = new Set(
  'von van der den de del della di da du le la y zu dos das ten ter'.split(' '),
)

export type Word = Readonly<{ text: string; begin: number; end: number }>

export const bare = (w: string) => w.replace(/\.$/, '').toLowerCase()
export const isCapitalised = (w: string) => /^\p{Lu}/u.test(w)
export const isInitial = (w: string) => /^\p{Lu}\.$/u.test(w)
export const isAllCaps = (w: string) => /^\p{Lu}[\p{Lu}'’-]+\.?$/u.test(w)
export const isTitle = (w: string) => TITLES.has(bare(w))
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

export const isParticle = (w: string) => PARTICLES.has(w.toLowerCase())

/** Consecutive words separated by one space that can belong to a name. */
export function runsOf(text: string, names: NameLexicon): Word[][] {
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

export function isFirstName(names: NameLexicon, word: string, language?: Language): boolean {
  const plain = word.replace(/\.$/, '')
  const lower = plain.toLowerCase()
  if (isAllCaps(plain) || plain.length < 2 || NOT_PERSON.has(lower) || isParticle(lower))
    return false
  if (FUNCTION_WORDS.has(lower) || NON_NAME_WORDS.has(lower)) return false
  const head = plain.split(/[-’']/)[0] ?? ''
  return head.length >= 2 && names.isFirstName(head, language)
}

/** Where the name starts in a run: a title, a listed first name, or an all-caps surname before one. */
export function startOf(run: readonly Word[], names: NameLexicon): number | undefined {
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
