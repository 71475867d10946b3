// src/core/keys/rotation-state.ts: the progress of background re-encryption, kept in its lease row so any node can resume it
import type { Micros } from '../time.ts'

export type Targets = Readonly<Record<string, number>>

/** What one batch of a re-encryption source did. */
export type StepResult = Readonly<{
  /** Where the next batch starts; undefined when the source has nothing left in this pass. */
  next: string | undefined
  scanned: number
  reencrypted: number
  /** Items another write changed first: left for the next pass. */
  conflicts: number
  /** Items that could not be opened (tampered stored data): reported, and not counted as changes,
   * so they never keep the job running. */
  failures: number
}>

/**
 * Re-encryption walks every source in passes. It is finished after a pass that changed nothing
 * and started once every node must be writing with the new keys (`settleMs` after the rotation).
 */
export type RotationState = Readonly<{
  targets: Targets
  rotatedAt: Micros
  pass: number
  passStartedAt: Micros
  /** Re-encrypted or conflicting items in the current pass; a clean pass has none. */
  passChanges: number
  sourceIndex: number
  position: string | undefined
  scanned: number
  reencrypted: number
  conflicts: number
  failures: number
  updatedAt: Micros
  finishedAt: Micros | undefined
}>

export function startState(targets: Targets, now: Micros): RotationState {
  return {
    targets,
    rotatedAt: now,
    pass: 1,
    passStartedAt: now,
    passChanges: 0,
    sourceIndex: 0,
    position: undefined,
    scanned: 0,
    reencrypted: 0,
    conflicts: 0,
    failures: 0,
    updatedAt: now,
    finishedAt: undefined,
  }
}

export function sameTargets(a: Targets, b: Targets): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)])
  return [...keys].every((key) => a[key] === b[key])
}

/** Whether `local` (this node's newest keys) is behind the targets another node recorded. */
export function isBehind(local: Targets, recorded: Targets): boolean {
  return Object.entries(recorded).some(([purpose, version]) => (local[purpose] ?? 0) < version)
}

/** Work exists when keys were rotated past version 1 and no finished state covers them. */
export function needsWork(state: RotationState | undefined, local: Targets): boolean {
  if (state === undefined) return Object.values(local).some((version) => version > 1)
  if (isBehind(local, state.targets)) return false
  return !sameTargets(state.targets, local) || state.finishedAt === undefined
}

/** Applies one batch of the current source. */
export function advance(state: RotationState, step: StepResult, now: Micros): RotationState {
  const isSourceDone = step.next === undefined
  return {
    ...state,
    sourceIndex: isSourceDone ? state.sourceIndex + 1 : state.sourceIndex,
    position: step.next,
    passChanges: state.passChanges + step.reencrypted + step.conflicts,
    scanned: state.scanned + step.scanned,
    reencrypted: state.reencrypted + step.reencrypted,
    conflicts: state.conflicts + step.conflicts,
    failures: state.failures + step.failures,
    updatedAt: now,
  }
}

/**
 * After the last source: finished when the pass was clean and started after the settle time;
 * otherwise a new pass (the caller waits until `settledAt` before starting it when clean).
 */
export function endPass(state: RotationState, now: Micros, settleMicros: number): RotationState {
  const settledAt = state.rotatedAt + settleMicros
  if (state.passChanges === 0 && state.passStartedAt >= settledAt)
    return { ...state, finishedAt: now, updatedAt: now }
  return {
    ...state,
    pass: state.pass + 1,
    passStartedAt: Math.max(now, state.passChanges === 0 ? settledAt : now),
    passChanges: 0,
    sourceIndex: 0,
    position: undefined,
    updatedAt: now,
  }
}

export function serializeState(state: RotationState): string {
  return JSON.stringify(state)
}

/** The stored state, or undefined when there is none or it is not one we wrote. */
export function parseState(text: string | undefined): RotationState | undefined {
  if (!text) return undefined
  try {
    const value = JSON.parse(text) as RotationState
    const isValid =
      typeof value === 'object' &&
      value !== null &&
      typeof value.targets === 'object' &&
      Number.isInteger(value.pass) &&
      Number.isInteger(value.sourceIndex)
    return isValid ? value : undefined
  } catch {
    return undefined
  }
}
