// src/core/analysis/recognizers/iban.ts: IBANs checked by country format and mod-97 (ibantools)
import { electronicFormatIBAN, ValidationErrorsIBAN, validateIBAN } from 'ibantools'
import type { Detection } from '../detector.ts'
import { eachMatch, type Recognizer } from '../recognizer.ts'

const CANDIDATE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]){10,30}(?![A-Za-z0-9])/g

/**
 * 0.95 for a valid IBAN; 0.8 when only the national check digits inside the BBAN fail (the ISO
 * 13616 mod-97 check and the country's length and format pass: test data is often made so).
 */
function scoreOf(electronic: string): number | undefined {
  const { errorCodes } = validateIBAN(electronic)
  if (errorCodes.length === 0) return 0.95
  const onlyNational = errorCodes.every(
    (code) => code === ValidationErrorsIBAN.WrongAccountBankBranchChecksum,
  )
  return onlyNational ? 0.8 : undefined
}

/** The longest prefix of space-separated groups that is an IBAN (the pattern may eat a word). */
function validPrefix(raw: string): { value: string; score: number } | undefined {
  let candidate = raw
  for (;;) {
    const score = scoreOf(electronicFormatIBAN(candidate) ?? '')
    if (score !== undefined) return { value: candidate, score }
    const cut = candidate.lastIndexOf(' ')
    if (cut < 8) return undefined
    candidate = candidate.slice(0, cut)
  }
}

export const recognizeIbans: Recognizer = ({ text }) =>
  eachMatch(CANDIDATE, text, (match): Detection | undefined => {
    const found = validPrefix(match[0])
    if (found === undefined) return undefined
    const { value, score } = found
    return {
      type: 'INTERNATIONAL_BANK_ACCOUNT_NUMBER',
      begin: match.index,
      end: match.index + value.length,
      score,
      normalized: electronicFormatIBAN(value) ?? value,
    }
  })
