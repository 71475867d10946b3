// src/core/data-types/temporal.ts: time built-in types: TIMESTAMP, DATE, DATE_OF_BIRTH (§7.2)
import type { BuiltinType } from './data-type.ts'
import { valueTransformer } from './data-type.ts'
import { stringType } from './string-type.ts'
import { checkDate, checkTimestamp } from './timestamp.ts'
import { age, ageFraction } from './transformers/age.ts'
import { maskDate, maskTimestamp } from './transformers/mask.ts'

export const TEMPORAL_TYPES: readonly BuiltinType[] = [
  stringType({
    name: 'TIMESTAMP',
    description: 'A point in time, normalized to RFC 3339 in UTC.',
    check: checkTimestamp,
    mask: maskTimestamp,
  }),
  stringType({
    name: 'DATE',
    description: 'A calendar date, YYYY-MM-DD.',
    check: checkDate,
    mask: maskDate,
  }),
  stringType({
    name: 'DATE_OF_BIRTH',
    description: 'A date of birth, YYYY-MM-DD.',
    check: checkDate,
    mask: maskDate,
    extraTransformers: {
      age: valueTransformer((value, ctx) => age(String(value), ctx.now)),
      age_frac: valueTransformer((value, ctx) => ageFraction(String(value), ctx.now)),
    },
  }),
]
