// src/core/analysis/language.ts: picks the language of a text from its most frequent function words
import type { Language } from './detector.ts'

const STOPWORDS: Readonly<Record<Language, readonly string[]>> = {
  en: [
    'the',
    'and',
    'is',
    'to',
    'of',
    'my',
    'you',
    'it',
    'for',
    'on',
    'with',
    'was',
    'this',
    'please',
    'have',
    'not',
    'your',
    'are',
    'will',
    'can',
    'from',
    'thanks',
    'hi',
  ],
  es: [
    'el',
    'la',
    'de',
    'que',
    'y',
    'en',
    'los',
    'las',
    'por',
    'con',
    'para',
    'una',
    'mi',
    'es',
    'del',
    'se',
    'no',
    'su',
    'al',
    'hola',
    'gracias',
    'favor',
  ],
  de: [
    'der',
    'die',
    'das',
    'und',
    'ist',
    'ich',
    'nicht',
    'mit',
    'sie',
    'ein',
    'eine',
    'zu',
    'den',
    'von',
    'mein',
    'meine',
    'bitte',
    'für',
    'auf',
    'wurde',
    'ihre',
    'hallo',
  ],
  fr: [
    'le',
    'la',
    'les',
    'et',
    'est',
    'je',
    'de',
    'des',
    'un',
    'une',
    'du',
    'pour',
    'pas',
    'vous',
    'mon',
    'ma',
    'sur',
    'avec',
    'au',
    'merci',
    'bonjour',
    'été',
  ],
}

const BY_WORD = new Map<string, Language[]>()
for (const [language, words] of Object.entries(STOPWORDS) as [Language, readonly string[]][])
  for (const word of words) BY_WORD.set(word, [...(BY_WORD.get(word) ?? []), language])

const SAMPLE = 4000

/** The words that mark a language; other modules use them as non-name words. */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(Object.values(STOPWORDS).flat())

/**
 * The language whose function words occur most in the first characters (English on a tie), or
 * undefined when the text has none of them (a bare value, a log line).
 */
export function detectLanguage(text: string): Language | undefined {
  const counts: Record<Language, number> = { en: 0, es: 0, de: 0, fr: 0 }
  const words =
    text
      .slice(0, SAMPLE)
      .toLowerCase()
      .match(/\p{L}+/gu) ?? []
  for (const word of words) for (const language of BY_WORD.get(word) ?? []) counts[language]++
  let best: Language = 'en'
  for (const language of ['es', 'de', 'fr'] as const)
    if (counts[language] > counts[best]) best = language
  return counts[best] > 0 ? best : undefined
}
