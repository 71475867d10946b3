// src/core/crypto/hash.ts: hashing, constant-time comparison and random secrets
import { hash, randomBytes, timingSafeEqual } from 'node:crypto'

/** One-shot `hash`: no Hash object per call (API keys are hashed on every request). */
export function sha256(data: string | Uint8Array): Uint8Array {
  return new Uint8Array(hash('sha256', data, 'buffer'))
}

/**
 * Compares secrets in time independent of where they differ (CWE-208), so a caller cannot learn
 * a key byte by byte from response times. Inputs of different lengths are unequal.
 */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

/** 32 random bytes as base64url without padding (43 characters): the API key format. */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}
