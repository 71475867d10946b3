// src/core/keys/rotation-state.test.ts: re-encryption progress: when there is work, passes, settling, persistence
import { describe, expect, it } from 'vitest'
import {
  advance,
  endPass,
  isBehind,
  needsWork,
  parseState,
  serializeState,
  startState,
} from './rotation-state.ts'

const step = (next: string | undefined, reencrypted = 0, conflicts = 0) => ({
  next,
  scanned: 10,
  reencrypted,
  conflicts,
  failures: 0,
})

describe('re-encryption state', () => {
  it('has work only after a rotation, until a finished state covers the newest keys', () => {
    expect(needsWork(undefined, { property: 1 })).toBe(false)
    expect(needsWork(undefined, { property: 2 })).toBe(true)
    const state = startState({ property: 2 }, 0)
    expect(needsWork(state, { property: 2 })).toBe(true)
    expect(needsWork({ ...state, finishedAt: 5 }, { property: 2 })).toBe(false)
    expect(needsWork({ ...state, finishedAt: 5 }, { property: 3 })).toBe(true)
  })

  it('leaves work recorded for newer keys to nodes that have them', () => {
    const state = startState({ property: 3 }, 0)
    expect(isBehind({ property: 2 }, state.targets)).toBe(true)
    expect(needsWork(state, { property: 2 })).toBe(false)
  })

  it('moves through sources and counts what each batch did', () => {
    let state = startState({ property: 2 }, 0)
    state = advance(state, step('p1', 7, 1), 1)
    expect(state).toMatchObject({
      sourceIndex: 0,
      position: 'p1',
      passChanges: 8,
      scanned: 10,
      reencrypted: 7,
      conflicts: 1,
    })
    state = advance(state, step(undefined), 2)
    expect(state).toMatchObject({ sourceIndex: 1, position: undefined })
  })

  it('starts another pass after changes, and finishes after a clean pass that began once settled', () => {
    const settle = 100
    let state = advance(startState({ property: 2 }, 0), step(undefined, 5), 10)
    state = endPass(state, 20, settle)
    expect(state).toMatchObject({
      pass: 2,
      passStartedAt: 20,
      passChanges: 0,
      sourceIndex: 0,
      finishedAt: undefined,
    })
    state = endPass(advance(state, step(undefined), 30), 40, settle)
    expect(state).toMatchObject({ pass: 3, passStartedAt: 100, finishedAt: undefined })
    state = endPass(advance(state, step(undefined), 110), 120, settle)
    expect(state.finishedAt).toBe(120)
  })

  it('survives a round trip through the lease row and ignores what it did not write', () => {
    const state = advance(startState({ property: 2 }, 0), step('{"c":"people"}', 1), 5)
    expect(parseState(serializeState(state))).toEqual(state)
    expect(parseState(undefined)).toBeUndefined()
    expect(parseState('')).toBeUndefined()
    expect(parseState('not json')).toBeUndefined()
    expect(parseState('{"x":1}')).toBeUndefined()
  })
})
