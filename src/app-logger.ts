// src/app-logger.ts: the service's one logger (pino): a JSON object per line, or pino-pretty for humans
import pino, { type Logger } from 'pino'
import { ConfigError } from './config.ts'

export type LoggerOptions = Readonly<{
  level: string
  format: 'json' | 'pretty'
  destination: 'stdout' | 'stderr'
  /** Labels written on every line (SVC_LOG_CUSTOMER_*); undefined ones are left out. */
  labels?: Readonly<Record<string, string | undefined>>
}>

/** STYLE §9: never log credentials or values, whatever path they take. */
const REDACT = {
  paths: [
    'req.headers.authorization',
    '*.value',
    '*.values',
    '*.properties',
    '*.plaintext',
    '*.token',
    '*.key',
  ],
  censor: '[redacted]',
}

/**
 * Every line: `level` (a name such as "info"), `time` (ISO 8601, UTC), `msg`, and `reqId` on the
 * lines written while serving a request (Fastify's request logger adds it).
 */
export async function createLogger(options: LoggerOptions): Promise<Logger> {
  const settings = {
    level: options.level,
    base: options.labels ?? {},
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
    redact: REDACT,
  }
  const fd = options.destination === 'stderr' ? 2 : 1
  if (options.format === 'pretty') {
    // Loaded only when asked for: JSON nodes never load the prettifier.
    const { default: pretty } = await import('pino-pretty')
    return pino(settings, pretty({ destination: fd, sync: true }))
  }
  return pino(settings, fd === 2 ? process.stderr : process.stdout)
}

/**
 * Start-up lines (where the node listens, its store, the dev or generated Admin key) are written
 * whatever SVC_LOG_LEVEL says: an operator needs them, and a generated key is shown only once.
 */
export function startupLogger(logger: Logger): Logger {
  return logger.isLevelEnabled('info') ? logger : logger.child({}, { level: 'info' })
}

/**
 * Why the node could not start, as one JSON line on stderr: before the configuration is read
 * there is no SVC_LOG_FORMAT to follow. Configuration problems are listed in `problems`.
 */
export function logStartupFailure(error: unknown): number {
  const logger = pino(
    {
      base: {},
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label: string) => ({ level: label }) },
    },
    process.stderr,
  )
  if (error instanceof ConfigError) {
    logger.fatal(
      { problems: error.problems },
      `Strongroom cannot start: the configuration is invalid: ${error.problems.join('; ')}`,
    )
    return 2
  }
  const reason = error instanceof Error ? error.message : String(error)
  logger.fatal(`Strongroom cannot start: ${reason}`)
  return 1
}
