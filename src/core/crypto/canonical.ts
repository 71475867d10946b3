// src/core/crypto/canonical.ts: canonical JSON text, so equal values always encode to equal bytes
/**
 * JSON with object keys sorted by UTF-16 code units at every depth (as RFC 8785 orders them);
 * arrays keep their order. Values reaching here are normalized JSON values, so numbers and
 * strings already have one spelling. Used wherever bytes must be a function of the value alone:
 * deterministic IDs and deterministic ciphertexts.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}
