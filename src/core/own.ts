// src/core/own.ts: lookups by a client-chosen key that never see inherited members
/**
 * `record[key]` when `record` has `key` as its own property, else `undefined`. Names chosen by
 * clients (property names such as `constructor` or `toString`, path segments, query values)
 * must not find the members every object inherits from `Object.prototype`.
 * @example ownValue({}, 'toString') // undefined, where ({}).toString is a function
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}
