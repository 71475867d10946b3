// src/core/analysis/detector.ts: the detector port: what the analysis service needs from a PII detector
import type { EntityType } from './entity-types.ts'

export const LANGUAGES = ['en', 'es', 'de', 'fr'] as const
export type Language = (typeof LANGUAGES)[number]

/** One entity found in a text: UTF-16 offsets, a score in [0, 1] calibrated so 0.5 balances errors. */
export type Detection = Readonly<{
  type: EntityType
  begin: number
  end: number
  score: number
  /** The value in the canonical form of its type (E.164 phone, digits of a card, ISO date). */
  normalized?: string
}>

export type DetectOptions = Readonly<{
  /** Undefined: detected from the text. */
  language: Language | undefined
  /** Abandons the work between chunks when aborted (the call timed out). */
  signal?: AbortSignal
}>

/**
 * A PII detector. It may return detections below 0.5; the service reports those at 0.5 and above.
 * Long texts must not hold the event loop: an implementation yields between chunks of work.
 */
export type Detector = Readonly<{
  detect(text: string, options: DetectOptions): Promise<readonly Detection[]>
}>
