// src/core/analysis/local-detector.ts: the built-in detector: recognizers over chunks of the text, then overlap resolution
// The recognizers (libphonenumber's metadata among them) and the name lists load on the first
// call, not at start-up: a node that never analyses text never pays for them (ADR 0010).
import type { Detection, DetectOptions, Detector } from './detector.ts'
import { detectLanguage } from './language.ts'
import { loadNameLexicon, type NameLexicon } from './names-data.ts'

/** Chunk length (a few milliseconds of work) and the overlap each side, so context words and long values are seen whole. */
const CHUNK = 4096
const OVERLAP = 384

const nextTurn = () => new Promise((resolve) => setImmediate(resolve))

type Engine = Readonly<{ scanAll: typeof import('./scan.ts').scanAll; names: NameLexicon }>

async function loadEngine(): Promise<Engine> {
  const [{ scanAll }, names] = await Promise.all([import('./scan.ts'), loadNameLexicon()])
  return { scanAll, names }
}

export function createLocalDetector(): Detector {
  let engine: Promise<Engine> | undefined

  async function detect(text: string, options: DetectOptions): Promise<readonly Detection[]> {
    engine ??= loadEngine().catch((error: unknown) => {
      engine = undefined
      throw error
    })
    const { scanAll, names } = await engine
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
