// src/core/audit/verify.ts: `strongroom audit verify`: walks a sink's chains and finds the first broken link
import { type ChainRecord, checkLine, GENESIS, linkProblem } from './chain.ts'

export type BrokenLink = Readonly<{
  /** 1-based line of the file, or position of the row in the table's insertion order. */
  at: number
  node?: string
  seq?: number
  problem: string
}>

export type VerifyReport = {
  /** Chained records checked. */
  records: number
  chainStarts: number
  /** Records before the first chained one that carry no hash (written before chaining existed). */
  unchained: number
  /** A file: whether it starts with a first chain start (`genesis`) or continues an earlier chain. */
  begins?: 'genesis' | 'continues'
  /** The hash of the last record: ship it elsewhere to anchor the chain (see README). */
  lastHash?: string
  /** Whether the anchor hash given to verify was found (undefined when none was given). */
  anchorFound?: boolean
  broken?: BrokenLink
}

type Linked = { readonly record: ChainRecord; readonly hash: string }

/**
 * Verifies the lines of an audit file in order, fed one at a time (`add`): every hash matches its
 * record, every record follows the one before it (prev_hash, node and seq), and every node start
 * begins with a chain start (seq 0).
 */
export function createLinesVerifier(anchor?: string) {
  const report: VerifyReport = { records: 0, chainStarts: 0, unchained: 0 }
  let previous: Linked | undefined
  let at = 0
  let blank = 0

  function add(line: string): boolean {
    at += 1
    if (report.broken !== undefined) return false
    if (line === '') {
      blank = at
      return true
    }
    if (blank > 0) {
      report.broken = { at: blank, problem: 'an empty line inside the chain' }
      return false
    }
    const checked = checkLine(line)
    if (!checked.ok) {
      if (previous === undefined && !line.includes('"hash":')) {
        report.unchained += 1
        return true
      }
      report.broken = { at, problem: checked.problem }
      return false
    }
    const { record, hash } = checked
    if (previous === undefined) {
      report.begins =
        record.type === 'chain_start' && record.prev_hash === GENESIS ? 'genesis' : 'continues'
    } else {
      const problem = linkProblem(previous, record)
      if (problem !== undefined) {
        report.broken = { at, node: record.node, seq: record.seq, problem }
        return false
      }
    }
    count(report, record, hash, anchor)
    previous = { record, hash }
    return true
  }

  return { add, finish: () => finishReport(report, anchor) }
}

/** Verifies the lines of an audit file given all at once (see createLinesVerifier). */
export function verifyLines(lines: Iterable<string>, anchor?: string): VerifyReport {
  const verifier = createLinesVerifier(anchor)
  for (const line of lines) if (!verifier.add(line)) break
  return verifier.finish()
}

function count(report: VerifyReport, record: ChainRecord, hash: string, anchor?: string) {
  report.records += 1
  if (record.type === 'chain_start') report.chainStarts += 1
  report.lastHash = hash
  if (anchor !== undefined && hash === anchor) report.anchorFound = true
}

function finishReport(report: VerifyReport, anchor: string | undefined): VerifyReport {
  if (anchor !== undefined) report.anchorFound ??= false
  return report
}

type Entry = { readonly at: number; readonly record: ChainRecord; readonly hash: string }
type NodeChain = { previous?: Linked; readonly pending: Map<number, Entry> }

/**
 * Verifies the database sink: rows of all nodes in insertion order, fed one at a time (`add`),
 * so a large table is read in pages. Each node's records form their own chain (a chain start
 * with seq 0, then 1, 2, …); rows a little out of seq order (concurrent transactions) wait until
 * the rows before them arrive.
 */
export function createRowsVerifier(anchor?: string) {
  const report: VerifyReport = { records: 0, chainStarts: 0, unchained: 0 }
  const chains = new Map<string, NodeChain>()

  function accept(node: string, chain: NodeChain, entry: Entry): boolean {
    const { previous } = chain
    const problem =
      previous === undefined
        ? entry.record.type === 'chain_start'
          ? undefined
          : `the chain of node ${node} has no chain start`
        : linkProblem(previous, entry.record)
    if (problem !== undefined) {
      report.broken = { at: entry.at, node, seq: entry.record.seq, problem }
      return false
    }
    count(report, entry.record, entry.hash, anchor)
    chain.previous = { record: entry.record, hash: entry.hash }
    return true
  }

  function add(at: number, text: string): boolean {
    if (report.broken !== undefined) return false
    const checked = checkLine(text)
    if (!checked.ok) {
      if (!text.includes('"hash":')) {
        report.unchained += 1
        return true
      }
      report.broken = { at, problem: checked.problem }
      return false
    }
    const node = checked.record.node ?? ''
    const seq = checked.record.seq ?? -1
    const chain: NodeChain = chains.get(node) ?? { pending: new Map() }
    chains.set(node, chain)
    const expected = (chain.previous?.record.seq ?? -1) + 1
    if (seq < expected || chain.pending.has(seq)) {
      report.broken = { at, node, seq, problem: `a second record with seq ${seq} of node ${node}` }
      return false
    }
    chain.pending.set(seq, { at, record: checked.record, hash: checked.hash })
    for (let next = expected; chain.pending.has(next); next += 1) {
      const entry = chain.pending.get(next) as Entry
      chain.pending.delete(next)
      if (!accept(node, chain, entry)) return false
    }
    return true
  }

  function finish(): VerifyReport {
    for (const [node, chain] of chains) {
      if (report.broken !== undefined) break
      if (chain.pending.size === 0) continue
      const first = Math.min(...chain.pending.keys())
      const expected = (chain.previous?.record.seq ?? -1) + 1
      report.broken = {
        at: chain.pending.get(first)?.at ?? 0,
        node,
        seq: first,
        problem: `records ${expected}${first - 1 > expected ? `–${first - 1}` : ''} of node ${node} are missing: deleted`,
      }
    }
    return finishReport(report, anchor)
  }

  return { add, finish }
}

/** Verifies database records given all at once (see createRowsVerifier). */
export function verifyRows(records: readonly string[], anchor?: string): VerifyReport {
  const verifier = createRowsVerifier(anchor)
  for (const [index, text] of records.entries()) if (!verifier.add(index + 1, text)) break
  return verifier.finish()
}
