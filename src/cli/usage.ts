// src/cli/usage.ts: the `strongroom` command line: commands, their options, --help and --version
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

export type CommandOptions = Readonly<{
  dev: boolean
  /** Arguments that are not options (`audit verify <file>`). */
  positionals: readonly string[]
  /** `audit verify --database`. */
  database?: boolean
  /** `audit verify --anchor <hash>`. */
  anchor?: string
}>
type Run = (options: CommandOptions) => Promise<number>

type Command = Readonly<{
  summary: string
  help: string
  load: () => Promise<Run>
  /** Takes `--database`, `--anchor <hash>` and positional arguments (the audit command). */
  isAudit?: boolean
}>

const CONFIGURATION = `Configuration comes from SVC_* environment variables and $SVC_CONFIG_DIR/config.toml
(default ./conf); .env.example lists every variable with its default.`

export const COMMANDS = {
  serve: {
    summary: 'run an API node until SIGTERM or SIGINT (npm start runs `serve --dev`)',
    help: `Usage: strongroom serve [--dev]

Runs one API node until SIGTERM or SIGINT, then stops gracefully.

Options:
  --dev       dev mode (unless SVC_DEVMODE says otherwise): the Admin key pvaultauth, a
              built-in KMS seed, no TLS, listening on 127.0.0.1:8123
  -h, --help  show this help

${CONFIGURATION}`,
    load: async () => (await import('./commands/serve.ts')).runServe,
  },
  migrate: {
    summary: 'apply pending database migrations and exit',
    help: `Usage: strongroom migrate [--dev]

Applies pending database migrations to the configured store and exits.

Options:
  --dev       dev mode defaults (unless SVC_DEVMODE says otherwise)
  -h, --help  show this help

${CONFIGURATION}`,
    load: async () => (await import('./commands/migrate.ts')).runMigrate,
  },
  audit: {
    summary: "check an audit log's hash chain and report the first broken link",
    help: `Usage: strongroom audit verify <file> [--anchor <hash>]
       strongroom audit verify --database [--dev] [--anchor <hash>]

Checks the hash chain of an audit file, or of the audit_events table of the configured
database (SVC_* settings), and reports the first broken link. With --anchor, also checks that
the record with that hash (one you kept elsewhere) is still there, which shows a cut-off tail.
Exit status: 0 intact, 1 broken or anchor missing, 2 usage or read error.

Options:
  --database       check the configured database's audit_events table instead of a file
  --anchor <hash>  a hash kept elsewhere that must still be in the chain
  --dev            dev mode defaults for --database (unless SVC_DEVMODE says otherwise)
  -h, --help       show this help

${CONFIGURATION}`,
    load: async () => (await import('./commands/audit.ts')).runAudit,
    isAudit: true,
  },
} as const satisfies Record<string, Command>

export type CommandName = keyof typeof COMMANDS

export const USAGE = `Usage: strongroom <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, command]) => `  ${name.padEnd(10)}${command.summary}`)
  .join('\n')}

Options:
  -h, --help     show this help (strongroom <command> --help: the command's)
  -v, --version  print the version

${CONFIGURATION}`

export type CommandLine =
  | { readonly kind: 'usage'; readonly text: string }
  | { readonly kind: 'version' }
  /** A wrong command line: one line to print, ending with where the help is. */
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'run'; readonly command: CommandName; readonly options: CommandOptions }

const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name)

/** Reads the arguments after `strongroom`; never throws: a bad argument is an `error`. */
export function parseCommandLine(args: readonly string[]): CommandLine {
  const [first, ...rest] = args
  if (first === undefined || first === '--help' || first === '-h' || first === 'help')
    return { kind: 'usage', text: USAGE }
  if (first === '--version' || first === '-v' || first === 'version') return { kind: 'version' }
  if (!isCommand(first)) {
    const known = Object.keys(COMMANDS).join(', ')
    const what = first.startsWith('-') ? 'option' : 'command'
    return {
      kind: 'error',
      message: `unknown ${what} ${first}; the commands are ${known} (see strongroom --help)`,
    }
  }
  try {
    const command: Command = COMMANDS[first]
    const isAudit = command.isAudit === true
    const { values, positionals } = parseArgs({
      args: [...rest],
      options: {
        dev: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
        ...(isAudit
          ? { database: { type: 'boolean', default: false }, anchor: { type: 'string' } }
          : {}),
      },
      strict: true,
      allowPositionals: isAudit,
    })
    if (values.help) return { kind: 'usage', text: command.help }
    const options: CommandOptions = {
      dev: values.dev === true,
      positionals,
      ...(isAudit
        ? { database: values.database === true, anchor: values.anchor as string | undefined }
        : {}),
    }
    return { kind: 'run', command: first, options }
  } catch (error) {
    // parseArgs says e.g. "Unknown option '--port'. To specify a positional argument …".
    const reason = (error as Error).message.split('. ')[0] ?? 'invalid arguments'
    return {
      kind: 'error',
      message: `${first}: ${reason.replace(/'/g, '')} (see strongroom ${first} --help)`,
    }
  }
}

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  return `strongroom ${pkg.version}`
}
