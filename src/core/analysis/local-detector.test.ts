// src/core/analysis/local-detector.test.ts: overlap resolution, chunking of long texts, languages, entity type names
import { describe, expect, it } from 'vitest'
import type { Detection } from './detector.ts'
import { toEntityType } from './entity-types.ts'
import { detectLanguage } from './language.ts'
import { languageOf } from './limits.ts'
import { createLocalDetector } from './local-detector.ts'
import { resolve } from './scan.ts'

const d = (type: Detection['type'], begin: number, end: number, score: number): Detection => ({
  type,
  begin,
  end,
  score,
})

describe('local detector', () => {
  it('keeps the confident span that contains others, else the best of overlapping candidates', () => {
    const url = d('URL', 0, 40, 0.8)
    const email = d('EMAIL', 20, 35, 0.9)
    expect(resolve([email, url])).toEqual([url])
    const phone = d('PHONE', 50, 62, 0.5)
    const nhs = d('UK_NATIONAL_HEALTH_SERVICE_NUMBER', 50, 62, 0.9)
    expect(resolve([phone, nhs])).toEqual(
      [url, nhs].filter((x) => x !== url).concat([]).length ? [nhs] : [],
    )
    expect(resolve([d('NAME', 0, 5, 0.05)])).toEqual([])
  })

  it('finds an entity that straddles a chunk boundary once, with offsets into the whole text', async () => {
    const detector = createLocalDetector()
    for (const at of [8180, 8190, 8200, 16_380]) {
      const text = `${'x '.repeat(at / 2)}mail: ana.ruiz@gmail.com ${'y '.repeat(5000)}`
      const found = await detector.detect(text, { language: 'en' })
      expect(found.map((f) => text.slice(f.begin, f.end))).toEqual(['ana.ruiz@gmail.com'])
    }
  })

  it('stops between chunks when the call is aborted', async () => {
    const detector = createLocalDetector()
    const controller = new AbortController()
    controller.abort(new Error('timed out'))
    await expect(
      detector.detect('z '.repeat(20_000), { language: 'en', signal: controller.signal }),
    ).rejects.toThrow('timed out')
  })

  it('detects the language from function words, and says so when there are none', () => {
    expect(detectLanguage('Hola, me llamo Ana y no puedo entrar en mi cuenta')).toBe('es')
    expect(detectLanguage('Ich habe meine Bestellung nicht bekommen, bitte helfen Sie mir')).toBe(
      'de',
    )
    expect(detectLanguage("Je n'arrive pas à me connecter, merci de m'aider")).toBe('fr')
    expect(detectLanguage('Please reset my password, it is not working')).toBe('en')
    expect(detectLanguage('+44 20 7946 0958')).toBeUndefined()
  })

  it('accepts the four languages in any case and with a region, and Presidio entity names', () => {
    expect(languageOf('EN')).toBe('en')
    expect(languageOf('fr-CA')).toBe('fr')
    expect(() => languageOf('english')).toThrow(/en, es, de, fr/)
    expect(toEntityType('email_address')).toBe('EMAIL')
    expect(toEntityType('PERSON')).toBe('NAME')
    expect(toEntityType('IBAN_CODE')).toBe('INTERNATIONAL_BANK_ACCOUNT_NUMBER')
    expect(toEntityType('toString')).toBeUndefined()
  })
})
