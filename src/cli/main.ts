#!/usr/bin/env node
// src/cli/main.ts: the `strongroom` command: parses arguments and dispatches
import { enableCompileCache } from 'node:module'

// Node keeps compiled modules in its cache directory: later starts skip recompiling the ~1000
// modules of the dependencies, which is most of the start-up time.
enableCompileCache()

const USAGE = `Usage: strongroom <command> [options]

Commands:
  serve [--dev]     run an API node (npm start runs \`serve --dev\`)
  migrate [--dev]   apply pending database migrations and exit
  audit verify <file> | --database [--anchor <hash>]
                    check an audit log's hash chain; report the first broken link

Configuration comes from SVC_* environment variables and $SVC_CONFIG_DIR/config.toml;
see .env.example for every variable.`

type Command = (args: string[]) => Promise<number>

// Commands are imported after the cache is enabled, so their modules load through it.
const commands: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./commands/serve.ts')).runServe,
  migrate: async () => (await import('./commands/migrate.ts')).runMigrate,
  audit: async () => (await import('./commands/audit.ts')).runAudit,
}

const [name, ...rest] = process.argv.slice(2)
const load = name === undefined ? undefined : commands[name]
if (load === undefined) {
  console.error(USAGE)
  process.exitCode = name === undefined || name === 'help' || name === '--help' ? 0 : 2
} else {
  process.exitCode = await (await load())(rest)
}
