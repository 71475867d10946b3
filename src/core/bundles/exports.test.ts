// src/core/bundles/exports.test.ts: judging a bundle's exports and the update superset rule
import { describe, expect, it } from 'vitest'
import { vaultErrorOf } from '../../../test/helpers/errors.ts'
import { assertSuperset, judgeExports } from './exports.ts'
import type { RawExport } from './sandbox.ts'

const fn = (name: string, type: unknown, extra: Partial<RawExport> = {}): RawExport => ({
  name,
  isObject: true,
  hasHandler: true,
  type,
  ...extra,
})

/** The message of the 400 ERR1012 `work` throws. */
function messageOf(work: () => unknown): string {
  const error = vaultErrorOf(work)
  expect(error.errorName).toBe('invalidRequest')
  return error.message
}

describe('bundle exports', () => {
  it('keeps the prototypes, sorted by name, without empty extras', () => {
    const judged = judgeExports('b', [
      fn('zeta', 'validator'),
      fn('alpha', 'transformer', {
        description: 'Masks.',
        dependencies: { properties: ['ssn', 'ssn', 'na*e?'] },
      }),
      fn('mid', 'action', { dependencies: {} }),
    ])
    expect(judged).toEqual([
      {
        name: 'alpha',
        type: 'transformer',
        description: 'Masks.',
        dependencies: { properties: ['ssn', 'na*e?'] },
      },
      { name: 'mid', type: 'action', dependencies: {} },
      { name: 'zeta', type: 'validator' },
    ])
  })

  it('names the bundle and the export in every refusal', () => {
    expect(messageOf(() => judgeExports('b', [fn('a', 'mapper')]))).toBe(
      'The export a of bundle b is invalid: its type must be one of validator, normalizer, transformer, action, fptemplate.',
    )
    expect(
      messageOf(() => judgeExports('b', [fn('a', 'validator', { hasHandler: false })])),
    ).toContain('handler')
    expect(
      messageOf(() => judgeExports('b', [{ name: 'a', isObject: false, hasHandler: false }])),
    ).toContain('object')
    expect(messageOf(() => judgeExports('b', [fn('_a', 'validator')]))).toContain('naming rules')
    expect(
      messageOf(() => judgeExports('b', [fn('a', 'validator', { description: ['x'] })])),
    ).toContain('description')
    for (const dependencies of [
      [],
      'ssn',
      { properties: 'ssn' },
      { properties: ['a.b'] },
      { properties: [''] },
    ]) {
      expect(
        messageOf(() => judgeExports('b', [fn('a', 'transformer', { dependencies })])),
      ).toContain('dependencies')
    }
  })

  it('lets an update add functions and change dependencies, not drop or retype one', () => {
    const before = judgeExports('b', [
      fn('a', 'validator'),
      fn('t', 'transformer', { dependencies: { properties: ['x'] } }),
    ])
    const grown = judgeExports('b', [
      fn('a', 'validator'),
      fn('t', 'transformer'),
      fn('n', 'normalizer'),
    ])
    expect(() => assertSuperset('b', before, grown)).not.toThrow()
    expect(messageOf(() => assertSuperset('b', before, [fn('a', 'validator')] as never))).toBe(
      'The new code of bundle b must keep the transformer t, but it no longer exports it.',
    )
    const retyped = judgeExports('b', [fn('a', 'normalizer'), fn('t', 'transformer')])
    expect(messageOf(() => assertSuperset('b', before, retyped))).toContain(
      'exports it as a normalizer',
    )
  })
})
