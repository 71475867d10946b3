#!/usr/bin/env node
// src/cli/main.ts: the `strongroom` command: parses arguments and dispatches
import { runMigrate } from './commands/migrate.ts'
import { runServe } from './commands/serve.ts'

const USAGE = `Usage: strongroom <command> [options]

Commands:
  serve [--dev]     run an API node (npm start runs \`serve --dev\`)
  migrate [--dev]   apply pending database migrations and exit

Configuration comes from SVC_* environment variables and $SVC_CONFIG_DIR/config.toml;
see .env.example for every variable.`

const commands: Record<string, (args: string[]) => Promise<number>> = {
  serve: runServe,
  migrate: runMigrate,
}

const [name, ...rest] = process.argv.slice(2)
const command = name === undefined ? undefined : commands[name]
if (command === undefined) {
  console.error(USAGE)
  process.exitCode = name === undefined || name === 'help' || name === '--help' ? 0 : 2
} else {
  process.exitCode = await command(rest)
}
