// test/helpers/errors.ts: the VaultError a unit under test throws
import { VaultError } from '../../src/core/errors.ts'

/** Runs `work` and returns the VaultError it threw; fails the test when it threw none. */
export function vaultErrorOf(work: () => unknown): VaultError {
  try {
    work()
  } catch (error) {
    if (error instanceof VaultError) return error
    throw error
  }
  throw new Error('expected a VaultError')
}
