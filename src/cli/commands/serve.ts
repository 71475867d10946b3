// src/cli/commands/serve.ts: `strongroom serve`: runs the API node until SIGTERM/SIGINT
import { parseArgs } from 'node:util'
import { type App, closeOnSignals, createApp, describeStartup } from '../../app.ts'
import { ConfigError, loadConfig } from '../../config.ts'
import { reportStartupFailure } from './failure.ts'

/** `serve [--dev]`: `--dev` turns dev mode on unless SVC_DEVMODE says otherwise. */
export async function runServe(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { dev: { type: 'boolean', default: false } } })
  let app: App
  let address: string
  try {
    const config = loadConfig(undefined, { devmode: values.dev })
    app = await createApp(config)
    address = await app.listen()
  } catch (error) {
    return reportStartupFailure(error, ConfigError)
  }
  // Handlers first: whoever reads the banner may signal at once, and an unhandled SIGINT kills.
  const closed = new Promise<number>((resolve) => {
    closeOnSignals(app, (error) => {
      if (error) console.error('Shutdown failed:', error)
      resolve(error ? 1 : 0)
    })
  })
  console.log(describeStartup(app, address).join('\n'))
  return closed
}
