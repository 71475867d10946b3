#!/usr/bin/env node
// src/main.ts: process entry: loadConfig → createApp → listen; handles signals (same as `strongroom serve`)
import { enableCompileCache } from 'node:module'

// Compiled modules are cached by Node between starts (see src/cli/main.ts).
enableCompileCache()
const { closeOnSignals, createApp, logStartup } = await import('./app.ts')
const { logStartupFailure } = await import('./app-logger.ts')
const { loadConfig } = await import('./config.ts')

try {
  const app = await createApp(loadConfig())
  closeOnSignals(app, (error) => {
    process.exitCode = error ? 1 : 0
  })
  logStartup(app, await app.listen())
} catch (error) {
  process.exitCode = logStartupFailure(error)
}
