#!/usr/bin/env node
// src/cli/main.ts: the `strongroom` command: parses arguments and dispatches
import { enableCompileCache } from 'node:module'

// Node keeps compiled modules in its cache directory: later starts skip recompiling the ~1000
// modules of the dependencies, which is most of the start-up time.
enableCompileCache()

const { COMMANDS, parseCommandLine, version } = await import('./usage.ts')

const parsed = parseCommandLine(process.argv.slice(2))
if (parsed.kind === 'usage') {
  console.log(parsed.text)
  process.exitCode = 0
} else if (parsed.kind === 'version') {
  console.log(version())
  process.exitCode = 0
} else if (parsed.kind === 'error') {
  // One line, and exit 2: the command line is wrong, not the service.
  console.error(`strongroom: ${parsed.message}`)
  process.exitCode = 2
} else {
  // Commands are imported after the cache is enabled, so their modules load through it.
  const run = await COMMANDS[parsed.command].load()
  process.exitCode = await run(parsed.options)
}
