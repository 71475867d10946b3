// src/core/analysis/names-data.ts: first-name lists of the four languages, read from the gender-detection-from-name package
// The lists are compiled from national given-name statistics (one file per language). They are
// read as text in slices, with a turn of the event loop between slices, so loading never blocks a
// request for long; nothing is fetched at run time.
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import type { Language } from './detector.ts'

export type NameLexicon = Readonly<{
  /** Whether `word` (any case) is a first name in `language`'s list, or in any list. */
  isFirstName(word: string, language?: Language): boolean
}>

const LANGUAGE_BIT: Readonly<Record<Language, number>> = { en: 1, es: 2, de: 4, fr: 8 }
const LINES_PER_SLICE = 4000

/**
 * Words the lists hold that are far more often something else (months, common nouns, places,
 * brands, greetings); as a first name they need other evidence, which the recognizer asks for.
 */
const AMBIGUOUS = new Set(
  `will may june april august mark bill grace hope faith joy rose page art sun summer sky guy pat chase
  sterling rich dean gene frank jack penny ray rob sue don case love king major prince royal star storm
  winter autumn river brook dawn eve ivy hazel holly iris lily daisy ruby amber crystal jewel honey candy
  misty sandy rusty dusty ginger cash price young long short black white brown green gray grey ford
  lincoln paris london sydney madison austin dallas houston phoenix georgia virginia carolina florence
  victoria jordan china india israel kenya asia africa america europa berlin mercedes lexus tesla apple
  cherry berry olive pepper sage basil bay hunter archer baker cook fisher mason carter parker cooper
  porter walker miller taylor hi hello dear thanks thank please order ticket subject priority payment
  charge call ship our the see note status total model focus golf clio salut merci bonjour hola hallo
  luz paz sol mar rosa blanca nieves reyes cruz fe verdad mai ostern
  ein eine bitte danke mein meine unser nach bei
  avril mars juin saint sainte numéro numero après apres real castilla
  perfecto perfect super genau parfait bien bueno vale claro gut prima toll exacto exactement bravo
  cool okay sure right alright absolutely natürlich genial estupendo excelente excellent merveilleux
  entendido compris verstanden wow oh ah nun alors pues bon well
  ordre pedido monday tuesday wednesday thursday friday saturday sunday
  great park patient prime kindle sevilla zara renault happy merry justice liberty unity harmony money
  silver diamond coral rock stone wood forest lake ocean rain snow cloud blue fern oak ash moss reed
  hill ridge cliff lane court hall temple chapel abbey bishop deacon pastor heaven zion salem haven
  harbor cove island sierra nevada montana dakota arizona texas kansas utah boston denver orlando
  miami vegas reno chicago cleveland memphis atlanta raleigh richmond washington general captain
  judge mister lady lord duke earl baron knight queen empress sultan khan shah raja pasha diva madonna
  madrid barcelona valencia malaga málaga bilbao toledo granada lyon marseille nice lille nantes
  toulouse bordeaux munich münchen hamburg köln dresden leipzig bremen hannover frankfurt vienna wien
  zurich geneva rome roma milan milano manchester bristol oxford cambridge york dublin melbourne perth
  brisbane toronto montreal vancouver quebec canada mexico brazil argentina chile peru colombia cuba
  spain españa france germany deutschland england scotland ireland wales italy portugal europe
  australia lunes martes miércoles jueves viernes sábado domingo montag dienstag mittwoch donnerstag
  freitag samstag sonntag lundi mardi mercredi jeudi vendredi samedi dimanche enero febrero marzo
  mayo junio julio agosto septiembre octubre noviembre diciembre januar februar märz juli oktober
  dezember janvier février juillet août septembre octobre novembre décembre`.split(/\s+/),
)

/** Any character past ASCII: only such words have accents to strip. */
const NON_ASCII = /[^ -~]/

function strip(word: string): string {
  return word.normalize('NFD').replace(/[\u0300-\u036f]/g, '')
}

/** Adds the names of one package file (`['name', 'gender'],` per line) to `into`, in slices. */
async function readList(path: string, bit: number, into: Map<string, number>): Promise<void> {
  const lines = (await readFile(path, 'utf8')).split('\n')
  for (let i = 0; i < lines.length; i += LINES_PER_SLICE) {
    for (const line of lines.slice(i, i + LINES_PER_SLICE)) {
      const open = line.indexOf("['")
      if (open === -1) continue
      const close = line.indexOf("'", open + 2)
      if (close === -1) continue
      const name = line.slice(open + 2, close)
      into.set(name, (into.get(name) ?? 0) | bit)
      const plain = strip(name)
      if (plain !== name) into.set(plain, (into.get(plain) ?? 0) | bit)
    }
    await new Promise((resolve) => setImmediate(resolve))
  }
}

export async function loadNameLexicon(): Promise<NameLexicon> {
  const require = createRequire(import.meta.url)
  const names = new Map<string, number>()
  for (const [language, bit] of Object.entries(LANGUAGE_BIT))
    await readList(require.resolve(`gender-detection-from-name/names/${language}.js`), bit, names)
  for (const word of AMBIGUOUS) names.delete(word)
  return {
    isFirstName(word, language) {
      const lower = word.toLowerCase()
      const bits = names.get(lower) ?? (NON_ASCII.test(lower) ? names.get(strip(lower)) : 0) ?? 0
      return language === undefined ? bits !== 0 : (bits & LANGUAGE_BIT[language]) !== 0
    },
  }
}
