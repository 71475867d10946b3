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
 * Verifies the lines of an audit file in order: every hash matches its record, every record
 * follows the one before it (prev_hash, node and seq), every node start begins with seq 0.
 */
export function verifyLines(lines: Iterable<string>, anchor?: string): VerifyReport {
  const report: VerifyReport = { records: 0, chainStarts: 0, unchained: 0 }
  let previous: Linked | undefined
  let at = 0
  let pendingBlank = 0
  for (const line of lines) {
    at += 1
    if (line === '') {
      pendingBlank = at
      continue
    }
    if (pendingBlank > 0) {
      report.broken = { at: pendingBlank, problem: 'an empty line inside the chain' }
      return finish(report, anchor)
    }
    const checked = checkLine(line)
    if (!checked.ok) {
      if (previous === undefined && !line.includes('"hash":')) {
        report.unchained += 1
        continue
      }
      report.broken = { at, problem: checked.problem }
      return finish(report, anchor)
    }
    const { record, hash } = checked
    if (previous === undefined) {
      report.begins =
        record.type === 'chain_start' && record.prev_hash === GENESIS ? 'genesis' : 'continues'
    } else {
      const problem = linkProblem(previous, record)
      if (problem !== undefined) {
        report.broken = { at, node: record.node, seq: record.seq, problem }
        return finish(report, anchor)
      }
    }
    count(report, record, hash, anchor)
    previous = { record, hash }
  }
  return finish(report, anchor)
}

function count(report: VerifyReport, record: ChainRecord, hash: string, anchor?: string) {
  report.records += 1
  if (record.type === 'chain_start') report.chainStarts += 1
  report.lastHash = hash
  if (anchor !== undefined && hash === anchor) report.anchorFound = true
}

function finish(report: VerifyReport, anchor: string | undefined): VerifyReport {
  if (anchor !== undefined) report.anchorFound ??= false
  return report
}

/**
 * Verifies the database sink: the rows of all nodes, in insertion order. Each node's records form
 * their own chain (a chain start with seq 0, then seq 1, 2, …), checked in seq order.
 */
export function verifyRows(records: readonly string[], anchor?: string): VerifyReport {
  const report: VerifyReport = { records: 0, chainStarts: 0, unchained: 0 }
  const chains = new Map<string, { at: number; record: ChainRecord; hash: string }[]>()
  for (const [index, text] of records.entries()) {
    const at = index + 1
    const checked = checkLine(text)
    if (!checked.ok) {
      if (!text.includes('"hash":')) {
        report.unchained += 1
        continue
      }
      report.broken = { at, problem: checked.problem }
      return finish(report, anchor)
    }
    const node = checked.record.node ?? ''
    const chain = chains.get(node) ?? []
    chain.push({ at, record: checked.record, hash: checked.hash })
    chains.set(node, chain)
  }
  for (const [node, chain] of chains) {
    chain.sort((a, b) => (a.record.seq ?? 0) - (b.record.seq ?? 0))
    let previous: Linked | undefined
    for (const { at, record, hash } of chain) {
      const problem =
        previous === undefined
          ? record.type === 'chain_start' && record.seq === 0
            ? undefined
            : `the chain of node ${node} begins at seq ${record.seq}: its first records were deleted`
          : linkProblem(previous, record)
      if (problem !== undefined) {
        report.broken = { at, node, seq: record.seq, problem }
        return finish(report, anchor)
      }
      count(report, record, hash, anchor)
      previous = { record, hash }
    }
  }
  return finish(report, anchor)
}
