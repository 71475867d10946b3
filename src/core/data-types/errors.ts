// src/core/data-types/errors.ts: the errors of custom data types and of the bundle functions they name
import { VaultError } from '../errors.ts'

export function javascriptDisabled(): VaultError {
  return new VaultError('featureDisabled', {
    message: 'JavaScript is disabled on this vault (SVC_FEATURES_DISABLE_JAVASCRIPT).',
  })
}

export function typeNotFound(name: string): VaultError {
  return new VaultError('dataTypeNotFound', {
    message: 'The data type is not found.',
    context: { data_type: name.slice(0, 100) },
  })
}

/** 400 ERR1012 naming the type and the field to change. */
export function invalidType(name: string, why: string, field: string): VaultError {
  return new VaultError('invalidRequest', {
    message: `The data type ${name.slice(0, 100)} is invalid: ${why}.`,
    context: { data_type: name.slice(0, 100), field },
  })
}

export function builtinTypeOnly(name: string, why: string): VaultError {
  return new VaultError('invalidRequest', {
    message: `The data type ${name} is built in: ${why}.`,
    context: { data_type: name },
  })
}

export function typeNameTaken(name: string, isBuiltin: boolean): VaultError {
  const what = isBuiltin ? 'a built-in data type' : 'a data type'
  return new VaultError('alreadyExists', {
    message: `The name ${name} is taken by ${what} (names are unique regardless of case); choose another name.`,
    context: { data_type: name },
  })
}

export function typeInUse(name: string, properties: readonly string[]): VaultError {
  return new VaultError('inUse', {
    message: `The data type ${name} is used by ${properties.slice(0, 10).join(', ')}; delete or change those properties first.`,
    context: { data_type: name, used_by: properties.slice(0, 100).join(',') },
  })
}

/** A referenced bundle function that does not exist (404 ERR1004, endpoints §6.2). */
export function functionNotFound(bundle: string, fn: string, field: string): VaultError {
  return new VaultError('bundleNotFound', {
    message: `The function ${bundle}.${fn} is not found: bundle ${bundle} does not exist or does not export ${fn}.`,
    context: { bundle, function: fn, field },
  })
}
