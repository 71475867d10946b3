// src/sandbox/harness.ts: the script that runs inside each QuickJS runtime before the bundle: globals, exports, batch calls

/**
 * Evaluated in a fresh context before any customer code, so the references it keeps (JSON,
 * Object.freeze, …) are the pristine ones whatever the bundle later overwrites. It evaluates to a
 * function of the two host functions; that function installs the sandbox globals (data-model
 * §9.4: `exports`/`module`, `console`, `fetch`; nothing else) and returns the harness:
 *
 * - `describe()`: after the bundle ran, snapshots its exported functions and describes them as
 *   JSON (core judges the shape).
 * - `call(name, type, sharedJson, inputsJson, maxChars)`: runs the function once per input and
 *   answers one JSON text `[[1,value],[0,"threw","TypeError"],…]`, or a Promise of it when a
 *   handler returned a thenable, or `{"fail":…}` for the whole call.
 *
 * Only JSON text crosses to the host, never a handle to a customer object, so prototype
 * pollution or odd return values stay inside. The results are capped at `maxChars` characters
 * before the host copies them out.
 */
export const HARNESS_SOURCE = `(function (hostLog, hostRequest) {
  'use strict'
  const G = globalThis
  const parse = JSON.parse
  const stringify = JSON.stringify
  const freeze = Object.freeze
  const keys = Object.keys
  const isFrozen = Object.isFrozen
  const apply = Reflect.apply
  const assign = Object.assign
  const InternalErrorType = G.InternalError
  const NAME = /^[A-Za-z_$][A-Za-z0-9_$]{0,63}$/
  const functions = Object.create(null)
  let vault

  function deepFreeze(value) {
    if (value !== null && typeof value === 'object' && !isFrozen(value)) {
      freeze(value)
      for (const key of keys(value)) deepFreeze(value[key])
    }
    return value
  }

  function text(args) {
    let out = ''
    for (let i = 0; i < args.length && out.length < 2000; i++) {
      let part
      try {
        part = typeof args[i] === 'string' ? args[i] : stringify(args[i])
      } catch (e) {
        part = '[unserializable]'
      }
      out += (i > 0 ? ' ' : '') + String(part)
    }
    return out.slice(0, 2000)
  }

  function log() {
    hostLog(text(arguments))
  }

  function headersOf(init) {
    const out = {}
    const given = init && init.headers
    if (given !== null && typeof given === 'object') {
      for (const key of keys(given)) out[String(key)] = String(given[key])
    }
    return out
  }

  function response(answer) {
    const body = String(answer.body)
    return freeze({
      ok: answer.status >= 200 && answer.status < 300,
      status: answer.status,
      headers: freeze(answer.headers),
      text: () => Promise.resolve(body),
      json: () => Promise.resolve().then(() => parse(body)),
    })
  }

  function fetch(url, init) {
    const request = {
      url: String(url),
      method: init && init.method !== undefined ? String(init.method) : 'GET',
      headers: headersOf(init),
    }
    if (init && init.body !== undefined && init.body !== null) request.body = String(init.body)
    return hostRequest('fetch', stringify(request)).then((answer) => response(parse(answer)))
  }

  function vaultCall(op) {
    return (request) => hostRequest(op, stringify(request === undefined ? null : request)).then(parse)
  }

  const module = { exports: {} }
  G.module = module
  G.exports = module.exports
  G.console = freeze({ log: log, info: log, warn: log, error: log, debug: log })
  G.fetch = fetch

  function jsonField(value) {
    if (value === undefined) return undefined
    try {
      const s = stringify(value)
      return s === undefined ? { invalid: typeof value } : parse(s)
    } catch (e) {
      return { invalid: typeof value }
    }
  }

  function describe() {
    const exported = module.exports
    if (exported === null || (typeof exported !== 'object' && typeof exported !== 'function')) {
      return stringify({ fail: 'load', detail: 'module.exports is not an object' })
    }
    const entries = []
    for (const name of keys(exported)) {
      const value = exported[name]
      const isObject = value !== null && typeof value === 'object'
      const entry = { name: String(name), isObject: isObject, hasHandler: false }
      if (isObject) {
        const handler = value.handler
        entry.hasHandler = typeof handler === 'function'
        entry.type = jsonField(value.type)
        entry.description = jsonField(value.description)
        entry.dependencies = jsonField(value.dependencies)
        if (entry.hasHandler && typeof entry.type === 'string') {
          functions[entry.name] = freeze({ type: entry.type, handler: handler })
        }
      }
      entries.push(entry)
    }
    return stringify(entries)
  }

  function errorName(error) {
    try {
      const name = error !== null && typeof error === 'object' ? error.name : undefined
      return typeof name === 'string' && NAME.test(name) ? name : 'Error'
    } catch (e) {
      return 'Error'
    }
  }

  function errorMessage(error) {
    try {
      return error !== null && typeof error === 'object' ? String(error.message).slice(0, 500) : ''
    } catch (e) {
      return ''
    }
  }

  function isLimit(error) {
    return error instanceof InternalErrorType &&
      (error.message === 'out of memory' || error.message === 'interrupted')
  }

  function failed(error) {
    if (isLimit(error)) throw error
    return '[0,"threw",' + stringify(errorName(error)) + ',' + stringify(errorMessage(error)) + ']'
  }

  function encode(value) {
    let s
    try {
      s = stringify(value === undefined ? null : value)
    } catch (error) {
      if (isLimit(error)) throw error
      return '[0,"not_json",' + stringify(errorName(error)) + ',""]'
    }
    return s === undefined ? '[0,"not_json","' + typeof value + '",""]' : '[1,' + s + ']'
  }

  function finish(parts, maxChars) {
    let total = 2
    for (let i = 0; i < parts.length; i++) total += parts[i].length + 1
    if (total > maxChars) return '{"fail":"too_large"}'
    return '[' + parts.join(',') + ']'
  }

  function isThenable(value) {
    return value !== null && (typeof value === 'object' || typeof value === 'function') &&
      typeof value.then === 'function'
  }

  async function settle(parts, pending, maxChars) {
    for (const i of pending) {
      try {
        parts[i] = encode(await parts[i])
      } catch (error) {
        parts[i] = failed(error)
      }
    }
    return finish(parts, maxChars)
  }

  function call(name, type, sharedJson, inputsJson, maxChars) {
    const fn = functions[name]
    if (fn === undefined) return '{"fail":"not_found"}'
    if (fn.type !== type) return stringify({ fail: 'wrong_type', detail: fn.type })
    const shared = deepFreeze(parse(sharedJson))
    const inputs = parse(inputsJson)
    if (type === 'action') {
      vault = vault || freeze({ deref: vaultCall('deref'), crypto: freeze({ decrypt: vaultCall('decrypt') }) })
      for (const args of inputs) args[0] = freeze(assign({}, args[0], { vault: vault }))
    }
    const parts = new Array(inputs.length)
    let pending
    for (let i = 0; i < inputs.length; i++) {
      try {
        const result = apply(fn.handler, undefined, shared.concat(inputs[i]))
        if (isThenable(result)) {
          parts[i] = result
          ;(pending || (pending = [])).push(i)
        } else {
          parts[i] = encode(result)
        }
      } catch (error) {
        parts[i] = failed(error)
      }
    }
    return pending === undefined ? finish(parts, maxChars) : settle(parts, pending, maxChars)
  }

  return { describe: describe, call: call }
})`
