// src/core/bundles/code.ts: a bundle's `code`: base64 on the wire, JavaScript text inside
import { sha256 } from '../crypto/hash.ts'
import { VaultError } from '../errors.ts'
import type { BundleSource } from './sandbox.ts'

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{2,3})?$/

function invalidCode(bundle: string, why: string): VaultError {
  return new VaultError('invalidRequest', {
    message: `The code of bundle ${bundle} is invalid: ${why}.`,
    context: { bundle, field: 'code' },
  })
}

/**
 * The JavaScript text of base64 `code` (standard alphabet; line breaks are tolerated, as MIME
 * encoders add them). 400 ERR1012 when it is not base64, not UTF-8, or empty.
 */
export function decodeCode(bundle: string, code: string): string {
  const compact = code.replace(/[\r\n]/g, '')
  if (!BASE64.test(compact)) return fail(bundle, 'it is not base64')
  let source: string
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(compact, 'base64'))
  } catch {
    return fail(bundle, 'it is not UTF-8 text once decoded')
  }
  if (source.trim() === '') return fail(bundle, 'it is empty')
  return source
}

function fail(bundle: string, why: string): never {
  throw invalidCode(bundle, why)
}

export function encodeCode(source: string): string {
  return Buffer.from(source, 'utf8').toString('base64')
}

/** The bundle as the sandbox runs it; the digest tells versions apart in its runtime cache. */
export function bundleSource(name: string, source: string): BundleSource {
  return { name, source, digest: Buffer.from(sha256(source)).toString('hex') }
}
