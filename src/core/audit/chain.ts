// src/core/audit/chain.ts: the hash chain of an audit sink: linking records and verifying a chain
import { sha256 } from '../crypto/hash.ts'

/** The `prev_hash` of the first record of a chain that follows nothing. */
export const GENESIS = '0'.repeat(64)

/** Where a sink's chain stands: the node that writes it, its last sequence number and hash. */
export type ChainState = Readonly<{ node: string; seq: number; hash: string }>

const HASH_TAIL = /,"hash":"([0-9a-f]{64})"\}$/

function hex(text: string): string {
  return Buffer.from(sha256(text)).toString('hex')
}

/**
 * Links one JSON object text after `state`: adds `node`, `seq` (the state's plus one) and
 * `prev_hash`, then appends `hash`, the SHA-256 of everything before it (the object with those
 * three members). A verifier recomputes it from the line alone.
 */
export function linkRecord(json: string, state: ChainState): { line: string; state: ChainState } {
  const seq = state.seq + 1
  const body = `${json.slice(0, -1)},"node":${JSON.stringify(state.node)},"seq":${seq},"prev_hash":"${state.hash}"}`
  const hash = hex(body)
  return { line: `${body.slice(0, -1)},"hash":"${hash}"}`, state: { node: state.node, seq, hash } }
}

/** The text of a chain start record: written first by every node start, as `seq` 0. */
export function chainStartJson(time: string, version: string): string {
  return JSON.stringify({ type: 'chain_start', time, version })
}

/** The state a node starts from: its start record gets `seq` 0 and follows `previousHash`. */
export function startState(node: string, previousHash: string | undefined): ChainState {
  return { node, seq: -1, hash: previousHash ?? GENESIS }
}

/** The hash a chained line ends with, or undefined for a line that carries none. */
export function hashOf(line: string): string | undefined {
  return HASH_TAIL.exec(line)?.[1]
}

export type ChainRecord = Readonly<{
  type?: string
  node?: string
  seq?: number
  prev_hash?: string
}>

/** A checked line: its parsed record and hash, or why it breaks the chain. */
export type CheckedLine =
  | { readonly ok: true; readonly record: ChainRecord; readonly hash: string }
  | { readonly ok: false; readonly problem: string }

/** Checks that a line carries a hash and that the hash matches its content. */
export function checkLine(line: string): CheckedLine {
  const match = HASH_TAIL.exec(line)
  if (match?.[1] === undefined) return { ok: false, problem: 'the record carries no hash' }
  const body = `${line.slice(0, match.index)}}`
  if (hex(body) !== match[1])
    return { ok: false, problem: 'the record does not match its hash: it was edited' }
  try {
    const record = JSON.parse(body) as ChainRecord
    if (typeof record.seq !== 'number' || typeof record.prev_hash !== 'string')
      return { ok: false, problem: 'the record has no seq or prev_hash' }
    return { ok: true, record, hash: match[1] }
  } catch {
    return { ok: false, problem: 'the record is not JSON' }
  }
}

/** Why `next` cannot follow `previous` in one chain, or undefined when it can. */
export function linkProblem(
  previous: { readonly record: ChainRecord; readonly hash: string },
  next: ChainRecord,
): string | undefined {
  if (next.prev_hash !== previous.hash)
    return 'prev_hash is not the hash of the record before it: a record was deleted, inserted or moved here'
  if (next.type === 'chain_start') return next.seq === 0 ? undefined : 'a chain start has seq ≠ 0'
  if (next.node !== previous.record.node || next.seq !== (previous.record.seq ?? 0) + 1)
    return `seq ${next.seq} of node ${next.node} does not follow seq ${previous.record.seq} of node ${previous.record.node}`
  return undefined
}
