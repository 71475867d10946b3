// src/cli/commands/failure.ts: turns a start-up failure into a message and an exit code
import type { ConfigError } from '../../config.ts'

/** Prints why the service could not start; configuration problems are listed one per line. */
export function reportStartupFailure(error: unknown, configError: typeof ConfigError): number {
  if (error instanceof configError) {
    console.error('Strongroom cannot start: the configuration is invalid:')
    for (const problem of error.problems) console.error(`  - ${problem}`)
    return 2
  }
  console.error(
    `Strongroom cannot start: ${error instanceof Error ? error.message : String(error)}`,
  )
  return 1
}
