// src/core/crypto-api/transform.test.ts: decrypt props: built-in transformers, the token transformer, custom ones with X-Trans-Param
import { describe, expect, it } from 'vitest'
import { testContext } from '../../../test/helpers/context.ts'
import type { StoredCollection } from '../collections/collection.ts'
import { createTypeRegistry } from '../data-types/registry.ts'
import { isVaultError } from '../errors.ts'
import { applyProps, type CustomTransformerRunner, parseProps, propChecks } from './transform.ts'

const types = createTypeRegistry({
  limits: { maxStringLength: 450, maxBlobLength: 1024, isLuhnCheckEnabled: true },
})
types.setCustomTypes([
  {
    name: 'CODE',
    baseTypeName: 'STRING',
    description: '',
    transformers: ['codes.shout'],
    createdAt: 1,
  },
])

const property = (name: string, dataType: string) => ({
  id: name,
  name,
  dataType,
  description: '',
  isEncrypted: true,
  isIndex: false,
  isSubstringIndex: false,
  isNullable: true,
  isUnique: false,
  createdAt: 1,
  modifiedAt: 1,
})
const collection: StoredCollection = {
  id: 'c1',
  name: 'people',
  type: 'PERSONS',
  properties: [property('ssn', 'SSN'), property('code', 'CODE')],
  createdAt: 1,
  modifiedAt: 1,
}
const fields = { ssn: '123-45-6789', code: 'abc' }

describe('decrypt props', () => {
  it('applies built-in transformers and answers null for token', async () => {
    const requests = parseProps(types, collection, ['ssn.mask', 'ssn', 'ssn.token', 'ssn.mask'])
    const output = await applyProps(
      testContext(),
      { collection, runCustom: undefined },
      requests,
      fields,
    )
    expect(output).toEqual({ 'ssn.mask': '***-**-6789', ssn: '123-45-6789', 'ssn.token': null })
  })

  it('runs custom transformers through the port, with X-Trans-Param and the decrypted object', async () => {
    const calls: unknown[] = []
    const runCustom: CustomTransformerRunner = async (ctx, call) => {
      calls.push({
        param: ctx.transParam,
        fn: call.function,
        prop: call.property,
        object: call.object,
      })
      return String(call.value).toUpperCase()
    }
    const requests = parseProps(types, collection, ['code.shout', 'code.mask'])
    const ctx = testContext(undefined, { transParam: 'p-1' })
    const output = await applyProps(ctx, { collection, runCustom }, requests, fields)
    expect(output).toEqual({ 'code.shout': 'ABC', 'code.mask': '***' })
    expect(calls).toEqual([{ param: 'p-1', fn: 'codes.shout', prop: 'code', object: fields }])
  })

  it('refuses custom transformers with 405 ERR1003 while no sandbox runs them', async () => {
    const requests = parseProps(types, collection, ['code.shout'])
    const failure = await applyProps(
      testContext(),
      { collection, runCustom: undefined },
      requests,
      fields,
    ).catch((e) => e)
    expect(isVaultError(failure) && failure.code).toBe('ERR1003')
  })

  it('names the transformation binding in policy checks, under archived/ when asked', () => {
    const requests = parseProps(types, collection, ['ssn.mask', 'code'])
    expect(propChecks('decrypt', 'people', requests, true)).toEqual([
      {
        operation: 'decrypt',
        resources: ['archived/people/properties/ssn.mask', 'archived/people/types/SSN.mask'],
      },
      {
        operation: 'decrypt',
        resources: ['archived/people/properties/code', 'archived/people/types/CODE'],
      },
    ])
  })

  it('refuses unknown properties and transformers with 404 ERR3004', () => {
    for (const props of [['nope'], ['ssn.nope'], ['ssn.']]) {
      try {
        parseProps(types, collection, props)
        throw new Error('expected a refusal')
      } catch (error) {
        expect(isVaultError(error) && error.code).toBe('ERR3004')
      }
    }
  })
})
