// src/cli/commands/audit.ts: `strongroom audit verify`: checks the hash chain of an audit file or of the database sink
import { verifyAuditDatabase, verifyAuditFile } from '../../app-audit.ts'
import { logStartupFailure } from '../../app-logger.ts'
import { ConfigError, loadConfig } from '../../config.ts'
import type { CommandOptions } from '../usage.ts'

type Report = Awaited<ReturnType<typeof verifyAuditFile>>

function describe(source: string, report: Report): { text: string; isIntact: boolean } {
  const { broken, anchorFound } = report
  const lines = [
    `${source}: ${report.records} chained records, ${report.chainStarts} chain starts` +
      (report.unchained > 0 ? `, ${report.unchained} older records without a chain` : ''),
  ]
  if (report.begins === 'continues')
    lines.push('The first record continues an earlier chain (a rotated file, or its head is gone).')
  if (broken !== undefined) {
    const where = broken.seq === undefined ? '' : ` (node ${broken.node}, seq ${broken.seq})`
    lines.push(
      `BROKEN at ${source.startsWith('database') ? 'row' : 'line'} ${broken.at}${where}: ${broken.problem}`,
    )
  }
  if (anchorFound === false)
    lines.push(
      'ANCHOR NOT FOUND: the record with the anchor hash is missing (a cut-off tail or another chain).',
    )
  if (report.lastHash !== undefined) lines.push(`Last hash: ${report.lastHash}`)
  const isIntact = broken === undefined && anchorFound !== false
  lines.push(isIntact ? 'Chain intact.' : 'Chain NOT intact.')
  return { text: lines.join('\n'), isIntact }
}

export async function runAudit(options: CommandOptions): Promise<number> {
  const [action, file, ...extra] = options.positionals
  const isDatabase = options.database === true
  const anchor = options.anchor
  if (action !== 'verify' || isDatabase === (file !== undefined) || extra.length > 0) {
    console.error(
      'strongroom: audit: give `verify <file>` or `verify --database` (see strongroom audit --help)',
    )
    return 2
  }
  let report: Report
  try {
    report = isDatabase
      ? await verifyAuditDatabase(loadConfig(undefined, { devmode: options.dev }), anchor)
      : await verifyAuditFile(file as string, anchor)
  } catch (error) {
    if (error instanceof ConfigError) {
      logStartupFailure(error)
      return 2
    }
    const code = (error as NodeJS.ErrnoException).code
    const reason = code ?? (error instanceof Error ? error.message : String(error))
    console.error(`${isDatabase ? 'The database' : file} cannot be read (${reason}).`)
    return 2
  }
  const { text, isIntact } = describe(
    isDatabase ? 'database audit_events' : (file as string),
    report,
  )
  console.log(text)
  return isIntact ? 0 : 1
}
