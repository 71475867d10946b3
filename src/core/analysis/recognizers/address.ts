// src/core/analysis/recognizers/address.ts: street addresses down to the house number, in English, Spanish, German and French forms
// Each pattern needs a street word and a house number; a postcode and town after it extend the
// span and the score. Repetitions are bounded and lazy ones end at a fixed delimiter, so every
// pattern runs in linear time.
import { ADDRESS_WORDS } from '../context-words.ts'
import type { Detection } from '../detector.ts'
import { eachMatch, type Recognizer } from '../recognizer.ts'
import { clamp, hasWordBefore } from '../text.ts'

const CAP = "\\p{Lu}[\\p{L}\\p{M}'’.-]*"
// A town's words end at a space or a mark, so `Edinburgh EH12 5JY` leaves the postcode whole.
const TOWN_WORD = `${CAP}(?![\\p{L}\\d])`
const TOWN = `${TOWN_WORD}(?:[ -]${TOWN_WORD}){0,2}`

const EN = new RegExp(
  `(?<![\\w])(?:(?:Flat|Apt\\.?|Unit)\\s\\d{1,4}[A-Z]?,\\s)?\\d{1,5}[A-Z]?\\s(?:${CAP}\\s){1,4}?(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Lane|Ln|Boulevard|Blvd|Court|Ct|Way|Place|Pl|Terrace|Close|Crescent|Gardens|Parkway|Pkwy|Circle|Cir|Highway|Hwy|Square|Sq|Row|Mews|Grove|Walk|Trail|Rise)\\b\\.?` +
    `(?:,?\\s(?:Apt|Apartment|Unit|Suite|Ste|Flat|Floor|#)\\.?\\s?#?\\w{1,6})?` +
    `(?:,\\s${TOWN})?(?:,?\\s(?:[A-Z]{2}\\s\\d{5}(?:-\\d{4})?|[A-Z]{1,2}\\d[A-Z\\d]?\\s\\d[A-Z]{2}))?`,
  'gu',
)

const ES_KIND =
  '(?:Calle|C\\/|Avenida|Avda\\.|Av\\.|Paseo|Pº|Plaza|Pza\\.|Ronda|Camino|Carrera|Travesía|Carretera|Rambla|Glorieta|Callejón|Rúa|Carrer)'
const ES_LINK = "(?:de|del|la|las|los|el|y|d’|d')"
const ES = new RegExp(
  `(?<![\\w])${ES_KIND}\\s(?:${ES_LINK}\\s){0,3}${CAP}(?:\\s(?:${ES_LINK}\\s){0,2}${CAP}){0,3},?\\s(?:nº\\s?|n\\.º\\s?|núm\\.\\s?|no\\.\\s?)?\\d{1,4}[A-Za-z]?(?![\\w])` +
    `(?:,\\s\\d{1,2}[º°ª]\\s?(?:[A-Z]|izda\\.?|dcha\\.?|izq\\.?|centro)?)?` +
    `(?:,?\\s\\d{5}\\s${TOWN}|\\s\\(${TOWN}\\))?`,
  'gu',
)

const DE_SUFFIX =
  '(?:straße|strasse|str\\.|weg|allee|platz|ring|gasse|damm|ufer|chaussee|steig|pfad|markt)'
const DE = new RegExp(
  `(?<![\\w])(?:\\p{Lu}[\\p{L}ß]*${DE_SUFFIX}|(?:\\p{Lu}[\\p{L}ß]*[- ]){1,3}(?:Straße|Strasse|Str\\.|Weg|Allee|Platz|Ring|Gasse|Damm)|(?:Am|An der|Im|In der|Auf dem|Zum|Zur)\\s\\p{Lu}[\\p{L}ß-]*)\\s\\d{1,4}\\s?[a-z]?(?![\\w])` +
    `(?:(?:,\\s?|\\n)\\d{5}\\s${CAP}(?:\\s(?:am|an der|im|a\\.)\\s?${CAP})?)?`,
  'gu',
)

const FR_KIND =
  '(?:rue|avenue|av\\.|boulevard|bd|chemin|allée|allee|place|impasse|quai|route|cours|square|passage|voie|faubourg|esplanade|résidence)'
const FR = new RegExp(
  `(?<![\\w])\\d{1,4}(?:\\s?(?:bis|ter))?,?\\s${FR_KIND}\\s[^\\n,;:()]{2,40}?(?=,|\\n|\\s\\d{5}|\\.|$)` +
    `(?:,\\s(?:Bât\\.?|Bâtiment|Apt|Appt|Résidence|Esc\\.?|\\d{1,2}e\\sétage)[^\\n,]{0,30})?` +
    `(?:(?:,\\s?|\\s|\\n)\\d{5}\\s${TOWN})?`,
  'giu',
)

function accept(text: string, m: RegExpExecArray, base: number): Detection | undefined {
  const value = m[0].replace(/[\s,.]+$/, '')
  if (value.length < 6) return undefined
  let score = base + (/\d{5}|[A-Z]\d[A-Z\d]?\s\d[A-Z]{2}/.test(value.slice(4)) ? 0.1 : 0)
  if (hasWordBefore(text, m.index, ADDRESS_WORDS, 5)) score += 0.1
  return { type: 'ADDRESS', begin: m.index, end: m.index + value.length, score: clamp(score) }
}

export const recognizeAddresses: Recognizer = ({ text }) => [
  ...eachMatch(EN, text, (m) => accept(text, m, 0.7)),
  ...eachMatch(ES, text, (m) => accept(text, m, 0.7)),
  ...eachMatch(DE, text, (m) => accept(text, m, 0.7)),
  ...eachMatch(FR, text, (m) => accept(text, m, 0.7)),
]
