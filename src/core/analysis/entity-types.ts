// src/core/analysis/entity-types.ts: the entity types the analysis reports, and the synonyms accepted on input

/**
 * Entity type names: Amazon Comprehend's where it has one (NAME, EMAIL, PHONE, ADDRESS,
 * CREDIT_DEBIT_NUMBER, SSN, IP_ADDRESS, URL, PASSPORT_NUMBER, INTERNATIONAL_BANK_ACCOUNT_NUMBER,
 * UK_NATIONAL_INSURANCE_NUMBER, UK_NATIONAL_HEALTH_SERVICE_NUMBER), else our own in the same style.
 */
export const ENTITY_TYPES = [
  'NAME',
  'EMAIL',
  'PHONE',
  'ADDRESS',
  'CREDIT_DEBIT_NUMBER',
  'SSN',
  'INTERNATIONAL_BANK_ACCOUNT_NUMBER',
  'IP_ADDRESS',
  'URL',
  'DATE_OF_BIRTH',
  'PASSPORT_NUMBER',
  'UK_NATIONAL_INSURANCE_NUMBER',
  'UK_NATIONAL_HEALTH_SERVICE_NUMBER',
  'ES_NIF',
  'FR_NIR',
  'DE_TAX_ID',
] as const

export type EntityType = (typeof ENTITY_TYPES)[number]

/** Other names accepted on input (Presidio's, the vault's data types, common spellings). */
export const ENTITY_SYNONYMS: Readonly<Record<string, EntityType>> = {
  PERSON: 'NAME',
  PERSON_NAME: 'NAME',
  EMAIL_ADDRESS: 'EMAIL',
  PHONE_NUMBER: 'PHONE',
  STREET_ADDRESS: 'ADDRESS',
  CREDIT_CARD: 'CREDIT_DEBIT_NUMBER',
  CC_NUMBER: 'CREDIT_DEBIT_NUMBER',
  US_SSN: 'SSN',
  IBAN: 'INTERNATIONAL_BANK_ACCOUNT_NUMBER',
  IBAN_CODE: 'INTERNATIONAL_BANK_ACCOUNT_NUMBER',
  US_PASSPORT: 'PASSPORT_NUMBER',
  UK_NINO: 'UK_NATIONAL_INSURANCE_NUMBER',
  UK_NHS: 'UK_NATIONAL_HEALTH_SERVICE_NUMBER',
  ES_NIE: 'ES_NIF',
  ES_DNI: 'ES_NIF',
  FR_SSN: 'FR_NIR',
  FR_NATIONAL_ID: 'FR_NIR',
  DE_STEUER_ID: 'DE_TAX_ID',
  DOB: 'DATE_OF_BIRTH',
}

/** The canonical entity type for a name given by a client (case-insensitive), or undefined. */
export function toEntityType(name: string): EntityType | undefined {
  const upper = name.trim().toUpperCase()
  if ((ENTITY_TYPES as readonly string[]).includes(upper)) return upper as EntityType
  return Object.hasOwn(ENTITY_SYNONYMS, upper) ? ENTITY_SYNONYMS[upper] : undefined
}
