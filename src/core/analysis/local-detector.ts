// src/core/analysis/local-detector.ts: the built-in detector: recognizers over chunks of the text, then overlap resolution
import type { Detection, DetectOptions, Detector } from './detector.ts'
import { detectLanguage } from './language.ts'
import { loadNameLexicon, type NameLexicon } from './names-data.ts'
import type { Recognizer, Scan } from './recognizer.ts'
import { recognizeAddresses } from './recognizers/address.ts'
import { recognizeBirthDates } from './recognizers/birth-date.ts'
import { recognizeCards } from './recognizers/card.ts'
import { recognizeEmails } from './recognizers/email.ts'
import { recognizeIbans } from './recognizers/iban.ts'
import { recognizeIps } from './recognizers/ip.ts'
import { recognizeNames } from './recognizers/names.ts'
import { NATIONAL_ID_RECOGNIZERS } from './recognizers/national-ids.ts'
import { recognizePhones } from './recognizers/phone.ts'
import { recognizeSsns } from './recognizers/ssn.ts'
import { recognizeUrls } from './recognizers/url.ts'

export const RECOGNIZERS: readonly Recognizer[] = [
  recognizeEmails,
  recognizeUrls,
  recognizeCards,
  recognizeIbans,
  recognizeSsns,
  ...NATIONAL_ID_RECOGNIZERS,
  recognizeIps,
  recognizeBirthDates,
  recognizePhones,
  recognizeAddresses,
  recognizeNames,
]

/** Candidates below this never win an overlap and are dropped. */
const MIN_SCORE = 0.1
/** Chunk length and the overlap each side, so context words and long values are seen whole. */
const CHUNK = 8192
const OVERLAP = 512

/** Strictly: `a` covers `b` and is longer (equal spans compete on score). */
const contains = (a: Detection, b: Detection) =>
  a.begin <= b.begin && b.end <= a.end && a.end - a.begin > b.end - b.begin
const overlaps = (a: Detection, b: Detection) => a.begin < b.end && b.begin < a.end

/**
 * Keeps the best of overlapping candidates: a confident span that contains others (a URL with an
 * e-mail, an address with a name) wins over them; otherwise the higher score, then the longer.
 */
export function resolve(candidates: readonly Detection[]): Detection[] {
  const live = candidates.filter((c) => c.score >= MIN_SCORE)
  const contained = new Set(
    live.filter((b) => live.some((a) => a.score >= 0.5 && contains(a, b) && a.type !== b.type)),
  )
  const ranked = live
    .filter((c) => !contained.has(c))
    .sort((a, b) => b.score - a.score || b.end - b.begin - (a.end - a.begin))
  const kept: Detection[] = []
  for (const c of ranked) if (!kept.some((k) => overlaps(k, c))) kept.push(c)
  return kept.sort((a, b) => a.begin - b.begin)
}

function scanAll(scan: Scan): Detection[] {
  return resolve(RECOGNIZERS.flatMap((recognize) => recognize(scan)))
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

export function createLocalDetector(): Detector {
  // Started at once; the first call waits for it (a few hundred milliseconds, in slices).
  const lexicon: Promise<NameLexicon> = loadNameLexicon()
  lexicon.catch(() => {})

  async function detect(text: string, options: DetectOptions): Promise<readonly Detection[]> {
    const names = await lexicon
    const detected = options.language === undefined ? detectLanguage(text) : undefined
    const language = options.language ?? detected ?? 'en'
    const isLanguageGuessed = options.language === undefined && detected === undefined
    const scan = { language, isLanguageGuessed, names }
    if (text.length <= CHUNK + OVERLAP) return scanAll({ text, ...scan })
    const found: Detection[] = []
    for (let start = 0; start < text.length; start += CHUNK) {
      options.signal?.throwIfAborted()
      const from = Math.max(0, start - OVERLAP)
      const window = text.slice(from, start + CHUNK + OVERLAP)
      for (const d of scanAll({ text: window, ...scan })) {
        const begin = d.begin + from
        // Each detection belongs to the chunk where it starts.
        if (begin >= start && begin < start + CHUNK) found.push({ ...d, begin, end: d.end + from })
      }
      await nextTurn()
    }
    return found
  }

  return { detect }
}
