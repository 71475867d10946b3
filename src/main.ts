#!/usr/bin/env node
// src/main.ts: process entry: loadConfig → createApp → listen; handles signals (same as `strongroom serve`)
import { enableCompileCache } from 'node:module'

// Compiled modules are cached by Node between starts (see src/cli/main.ts).
enableCompileCache()
const { closeOnSignals, createApp, describeStartup } = await import('./app.ts')
const { ConfigError, loadConfig } = await import('./config.ts')

try {
  const app = await createApp(loadConfig())
  closeOnSignals(app, (error) => {
    process.exitCode = error ? 1 : 0
  })
  console.log(describeStartup(app, await app.listen()).join('\n'))
} catch (error) {
  const problems =
    error instanceof ConfigError
      ? error.problems
      : [error instanceof Error ? error.message : String(error)]
  console.error(`Strongroom cannot start:\n  - ${problems.join('\n  - ')}`)
  process.exitCode = error instanceof ConfigError ? 2 : 1
}
