#!/usr/bin/env node
// src/main.ts: process entry: loadConfig → createApp → listen; handles signals (same as `strongroom serve`)
import { closeOnSignals, createApp, describeStartup } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'

try {
  const app = await createApp(loadConfig())
  const address = await app.listen()
  // Handlers before the banner: whoever reads it may signal at once.
  closeOnSignals(app, (error) => {
    process.exitCode = error ? 1 : 0
  })
  console.log(describeStartup(app, address).join('\n'))
} catch (error) {
  const problems =
    error instanceof ConfigError
      ? error.problems
      : [error instanceof Error ? error.message : String(error)]
  console.error(`Strongroom cannot start:\n  - ${problems.join('\n  - ')}`)
  process.exitCode = error instanceof ConfigError ? 2 : 1
}
