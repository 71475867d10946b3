// src/cli/commands/serve.ts: `strongroom serve`: runs the API node until SIGTERM/SIGINT
import { type App, closeOnSignals, createApp, logStartup } from '../../app.ts'
import { logStartupFailure } from '../../app-logger.ts'
import { loadConfig } from '../../config.ts'
import type { CommandOptions } from '../usage.ts'

/** `serve [--dev]`: `--dev` turns dev mode on unless SVC_DEVMODE says otherwise. */
export async function runServe(options: CommandOptions): Promise<number> {
  let app: App
  try {
    app = await createApp(loadConfig(undefined, { devmode: options.dev }))
  } catch (error) {
    return logStartupFailure(error)
  }
  // Signals are handled before the node listens, so a stop request is never missed.
  const closed = new Promise<number>((resolve) => {
    closeOnSignals(app, (error) => {
      if (error) app.logger.error({ err: error }, 'shutdown failed')
      resolve(error ? 1 : 0)
    })
  })
  try {
    logStartup(app, await app.listen())
  } catch (error) {
    await app.close()
    return logStartupFailure(error)
  }
  return closed
}
