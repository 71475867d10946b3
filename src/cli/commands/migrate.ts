// src/cli/commands/migrate.ts: `strongroom migrate`: applies pending database migrations and exits
import { runMigrations } from '../../app.ts'
import { logStartupFailure } from '../../app-logger.ts'
import { loadConfig } from '../../config.ts'
import type { CommandOptions } from '../usage.ts'

export async function runMigrate(options: CommandOptions): Promise<number> {
  try {
    const config = loadConfig(undefined, { devmode: options.dev })
    const { applied, version } = await runMigrations(config, (line) => console.error(line))
    console.log(
      applied.length > 0
        ? `Applied migrations ${applied.join(', ')}; schema version ${version}.`
        : `Schema is up to date (version ${version}).`,
    )
    return 0
  } catch (error) {
    return logStartupFailure(error)
  }
}
