// src/cli/commands/serve.ts: `strongroom serve`: runs the API node until SIGTERM/SIGINT
import { parseArgs } from 'node:util'
import { type App, closeOnSignals, createApp, describeStartup } from '../../app.ts'
import { ConfigError, loadConfig } from '../../config.ts'
import { reportStartupFailure } from './failure.ts'

/** `serve [--dev]`: `--dev` turns dev mode on unless SVC_DEVMODE says otherwise. */
export async function runServe(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { dev: { type: 'boolean', default: false } } })
  let app: App
  try {
    app = await createApp(loadConfig(undefined, { devmode: values.dev }))
  } catch (error) {
    return reportStartupFailure(error, ConfigError)
  }
  // Signals are handled before the node listens, so a stop request is never missed.
  const closed = new Promise<number>((resolve) => {
    closeOnSignals(app, (error) => {
      if (error) console.error('Shutdown failed:', error)
      resolve(error ? 1 : 0)
    })
  })
  try {
    console.log(describeStartup(app, await app.listen()).join('\n'))
  } catch (error) {
    await app.close()
    return reportStartupFailure(error, ConfigError)
  }
  return closed
}
