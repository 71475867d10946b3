// src/core/iam/evaluate.test.ts: the policy decision as a table of cases
import { describe, expect, it } from 'vitest'
import { evaluate, type PolicyCheck, vote } from './evaluate.ts'
import type { Policy } from './policy.ts'
import { compilePolicy } from './state.ts'

type Spec = [type: 'allow' | 'deny', operations: string[], reasons: string[], resources: string[]]

function policy(name: string, [type, operations, reasons, resources]: Spec): Policy {
  return compilePolicy(name, { isAllow: type === 'allow', operations, reasons, resources })
}

const P = {
  allowAll: policy('allowAll', ['allow', ['*'], ['*'], ['*']]),
  denyAll: policy('denyAll', ['deny', ['*'], ['*'], ['*']]),
  readSsn: policy('readSsn', ['allow', ['read'], ['*'], ['people/properties/ssn']]),
  readSsnMask: policy('readSsnMask', ['allow', ['read'], ['*'], ['people/properties/ssn.*']]),
  readEmailType: policy('readEmailType', ['allow', ['read'], ['*'], ['*/types/EMAIL']]),
  writeAll: policy('writeAll', ['allow', ['write', 'tokenize'], ['*'], ['*']]),
  denyWriteSsn: policy('denyWriteSsn', ['deny', ['write'], ['*'], ['people/types/SSN']]),
  analyticsOnly: policy('analyticsOnly', ['allow', ['read'], ['Analytics'], ['people/*']]),
  legacyOnly: policy('legacyOnly', ['allow', ['invalidate_token'], ['*'], ['*']]),
  meta: policy('meta', ['allow', ['*'], ['*'], ['*/properties/_*', '*/properties/id']]),
  stats: policy('stats', ['allow', ['stats'], ['*'], ['people']]),
  tokens: policy('tokens', ['allow', ['read', 'delete'], ['*'], ['*/tokens']]),
}

const ssn: PolicyCheck = {
  operation: 'read',
  resources: ['people/properties/ssn', 'people/types/SSN'],
}
const ssnMask: PolicyCheck = {
  operation: 'read',
  resources: ['people/properties/ssn.mask', 'people/types/SSN.mask'],
}
const email: PolicyCheck = {
  operation: 'read',
  resources: ['people/properties/email', 'people/types/EMAIL'],
}
const writeSsn: PolicyCheck = { ...ssn, operation: 'write' }
const tenant: PolicyCheck = {
  operation: 'read',
  resources: ['people/properties/_tenant_id', 'people/types/STRING'],
}

describe('policy evaluation', () => {
  it.each<[string, Policy[], PolicyCheck[], string, boolean]>([
    ['no policies deny (fail closed)', [], [ssn], 'AppFunctionality', false],
    ['an allow-all policy allows', [P.allowAll], [ssn, writeSsn], 'Marketing', true],
    ['a deny beats an allow', [P.allowAll, P.denyAll], [ssn], 'AppFunctionality', false],
    ['a deny listed first still beats an allow', [P.denyAll, P.allowAll], [ssn], 'Other', false],
    ['a property resource allows its raw value', [P.readSsn], [ssn], 'Analytics', true],
    [
      'a raw-value policy does not allow a transformation',
      [P.readSsn],
      [ssnMask],
      'Analytics',
      false,
    ],
    [
      'a transformation pattern allows the transformation',
      [P.readSsnMask],
      [ssnMask],
      'Analytics',
      true,
    ],
    [
      'a transformation pattern does not allow the raw value',
      [P.readSsnMask],
      [ssn],
      'Analytics',
      false,
    ],
    [
      'a type resource allows every property of the type',
      [P.readEmailType],
      [email],
      'Analytics',
      true,
    ],
    ['a type resource does not allow other types', [P.readEmailType], [ssn], 'Analytics', false],
    ['the operation must be listed', [P.readSsn], [writeSsn], 'Analytics', false],
    [
      'a deny on the type beats an allow on everything',
      [P.writeAll, P.denyWriteSsn],
      [writeSsn],
      'Analytics',
      false,
    ],
    [
      'a deny of another operation does not apply',
      [P.readSsn, P.denyWriteSsn],
      [ssn],
      'Analytics',
      true,
    ],
    [
      'a reason-restricted policy applies with its reason',
      [P.analyticsOnly],
      [ssn],
      'Analytics',
      true,
    ],
    [
      'a reason-restricted policy does not apply with another',
      [P.analyticsOnly],
      [ssn],
      'Marketing',
      false,
    ],
    ['legacy invalidate_token never matches', [P.legacyOnly], [ssn], 'Analytics', false],
    ['built-ins are their own resources', [P.meta], [tenant], 'Analytics', true],
    ['every check must pass (no partial success)', [P.readSsn], [ssn, email], 'Analytics', false],
    ['no checks pass trivially', [], [], 'Analytics', true],
    [
      'a check without resources is denied',
      [P.allowAll],
      [{ operation: 'read', resources: [] }],
      'Analytics',
      false,
    ],
    [
      'stats on the collection resource',
      [P.stats],
      [{ operation: 'stats', resources: ['people'] }],
      'Analytics',
      true,
    ],
    ['stats does not grant reads', [P.stats], [ssn], 'Analytics', false],
    [
      'token metadata resource',
      [P.tokens],
      [{ operation: 'delete', resources: ['people/tokens'] }],
      'Analytics',
      true,
    ],
    [
      'archived resources need their own grant',
      [P.readSsn],
      [{ operation: 'read', resources: ['archived/people/properties/ssn'] }],
      'Analytics',
      false,
    ],
  ])('%s', (_name, policies, checks, reason, expected) => {
    expect(evaluate(policies, checks, reason).isAllowed).toBe(expected)
  })

  it('reports the failing check and the denying policy', () => {
    expect(evaluate([P.readSsn, P.denyAll], [ssn], 'Analytics')).toEqual({
      isAllowed: false,
      check: ssn,
      deniedBy: 'denyAll',
    })
    expect(evaluate([P.readSsn], [ssn, email], 'Analytics')).toEqual({
      isAllowed: false,
      check: email,
      deniedBy: undefined,
    })
  })

  it.each<[Policy, PolicyCheck, string, string]>([
    [P.readSsn, ssn, 'Analytics', 'allow'],
    [P.denyAll, ssn, 'Analytics', 'deny'],
    [P.readSsn, writeSsn, 'Analytics', 'abstain'],
    [P.analyticsOnly, ssn, 'Maintenance', 'abstain'],
    [P.readSsn, email, 'Analytics', 'abstain'],
  ])('policy %# votes as expected', (p, check, reason, expected) => {
    expect(vote(p, check, reason)).toBe(expected)
  })
})
