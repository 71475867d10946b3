// src/cli/commands/audit.ts: `strongroom audit verify`: checks the hash chain of an audit file or of the database sink
import { verifyAuditDatabase, verifyAuditFile } from '../../app-audit.ts'
import { logStartupFailure } from '../../app-logger.ts'
import { ConfigError, loadConfig } from '../../config.ts'

const USAGE = `Usage: strongroom audit verify <file> [--anchor <hash>]
       strongroom audit verify --database [--dev] [--anchor <hash>]

Checks the hash chain of an audit file, or of the audit_events table of the configured
database (SVC_* settings), and reports the first broken link. With --anchor, also checks that
the record with that hash (one you kept elsewhere) is still there, which shows a cut-off tail.
Exit status: 0 intact, 1 broken or anchor missing, 2 usage or read error.`

type Report = Awaited<ReturnType<typeof verifyAuditFile>>

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(name)
  return at >= 0 ? args[at + 1] : undefined
}

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

export async function runAudit(args: string[]): Promise<number> {
  const [action, ...rest] = args
  const isDatabase = rest.includes('--database')
  const anchor = option(rest, '--anchor')
  const file = rest.find((arg, i) => !arg.startsWith('--') && rest[i - 1] !== '--anchor')
  if (
    action !== 'verify' ||
    isDatabase === (file !== undefined) ||
    (rest.includes('--anchor') && !anchor)
  ) {
    console.error(USAGE)
    return 2
  }
  let report: Report
  try {
    report = isDatabase
      ? await verifyAuditDatabase(
          loadConfig(undefined, { devmode: rest.includes('--dev') }),
          anchor,
        )
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
