// src/app-audit.ts: the audit sinks of the composition root: stdout, an append-only file that recovers, the table
import { constants, createReadStream } from 'node:fs'
import { access, type FileHandle, mkdir, open, stat, statfs } from 'node:fs/promises'
import { dirname } from 'node:path'
import { createInterface } from 'node:readline'
import type { Logger } from 'pino'
import type { Config } from './config.ts'
import type { AuditSink, AuditSinkEntry } from './core/audit/audit.ts'
import { hashOf } from './core/audit/chain.ts'
import { createLinesVerifier, createRowsVerifier, type VerifyReport } from './core/audit/verify.ts'
import { openDatabase } from './storage/database.ts'
import { createSqlStore } from './storage/sql-store.ts'

/** Below this much free space the file sink reports itself not ready (a batch is a few KiB). */
const MIN_FREE_BYTES = 64 * 1024
/** How much of an existing file's end is read to find the hash its chain ends with. */
const TAIL_BYTES = 64 * 1024

/** Appends to a stream (stdout); each write reports its own error, so a later one may succeed. */
function streamSink(stream: NodeJS.WritableStream): AuditSink {
  stream.on('error', () => {})
  return {
    write: (lines) =>
      new Promise((resolve, reject) => {
        stream.write(`${lines.join('\n')}\n`, (error) => (error ? reject(error) : resolve()))
      }),
  }
}

/** Writes all of `data`; a failure carries how many bytes had been written before it. */
async function writeAll(handle: FileHandle, data: Buffer): Promise<void> {
  let offset = 0
  try {
    while (offset < data.length) {
      const { bytesWritten } = await handle.write(data, offset, data.length - offset)
      offset += bytesWritten
    }
  } catch (error) {
    throw Object.assign(error as Error, { bytesWritten: offset })
  }
}

/** The hash of the last complete line of a regular file, if it carries one. */
async function lastHash(path: string): Promise<string | undefined> {
  const info = await stat(path).catch(() => undefined)
  if (info === undefined || !info.isFile() || info.size === 0) return undefined
  const handle = await open(path, 'r')
  try {
    const length = Math.min(TAIL_BYTES, info.size)
    const buffer = Buffer.alloc(length)
    await handle.read(buffer, 0, length, info.size - length)
    const lines = buffer.toString('utf8').split('\n')
    const last = lines.at(-1) === '' ? lines.at(-2) : undefined
    return last === undefined ? undefined : hashOf(last)
  } finally {
    await handle.close()
  }
}

/**
 * Appends JSON lines to a file, and keeps doing so through faults: no failure is permanent (the
 * next batch tries again); a write that fails part-way is cut off again, so the file holds whole
 * records only; a file deleted or replaced under the node (another inode at the path) is noticed
 * on the next batch (one stat) and reopened, with an error-level log line.
 */
export function fileSink(path: string, log: Logger): AuditSink & { close(): Promise<void> } {
  let handle: FileHandle | undefined
  let opened: { dev: number; ino: number } | undefined

  async function reopen(): Promise<FileHandle> {
    await mkdir(dirname(path), { recursive: true })
    const next = await open(path, 'a', 0o600)
    const info = await next.stat()
    handle = next
    opened = { dev: info.dev, ino: info.ino }
    return next
  }

  /** Appends `data`; a write that fails part-way is cut off again, so no half record remains. */
  async function append(file: FileHandle, data: Buffer): Promise<void> {
    try {
      await writeAll(file, data)
    } catch (error) {
      const written = (error as { bytesWritten?: number }).bytesWritten ?? 0
      if (written > 0) {
        const { size } = await file.stat()
        await file.truncate(size - written).catch(() => {})
      }
      throw error
    }
  }

  return {
    /**
     * The write and the check of the path run together (one round trip per batch, not two).
     * When the path no longer names the open file, the batch went to the old one: the file is
     * reopened and the batch written again there (a renamed file then ends with the batch the
     * new one begins with; the chain of each stays whole).
     */
    async write(lines) {
      const data = Buffer.from(`${lines.join('\n')}\n`)
      const file = handle
      if (file === undefined || opened === undefined) return append(await reopen(), data)
      const { dev, ino } = opened
      const [written, info] = await Promise.allSettled([append(file, data), stat(path)])
      const now = info.status === 'fulfilled' ? info.value : undefined
      if (now?.dev === dev && now.ino === ino) {
        if (written.status === 'rejected') throw written.reason
        return
      }
      log.error(
        { file: path },
        now === undefined
          ? 'audit file was deleted or renamed; reopened it at its path and wrote the batch there'
          : 'audit file was replaced by another file; reopened it and wrote the batch there',
      )
      handle = undefined
      await file.close().catch(() => {})
      await append(await reopen(), data)
    },
    previousHash: () => lastHash(path),
    async isWritable() {
      if ((await stat(path).catch(() => undefined))?.isDirectory()) return false
      const directory = dirname(path)
      await access(handle === undefined ? directory : path, constants.W_OK).catch(async () =>
        access(directory, constants.W_OK),
      )
      const space = await statfs(directory)
      return space.bavail * space.bsize >= MIN_FREE_BYTES
    },
    async close() {
      await handle?.close().catch(() => {})
      handle = undefined
    },
  }
}

export type AuditSinks = { readonly entries: readonly AuditSinkEntry[]; close(): Promise<void> }

/** The configured sinks, in the order SVC_LOG_AUDIT_SINK names them. */
export function auditSinks(config: Config, log: Logger): AuditSinks {
  const files: { close(): Promise<void> }[] = []
  const entries = config.log.auditSinks.map((kind): AuditSinkEntry => {
    if (kind === 'database') return { name: kind, sink: 'database' }
    if (kind === 'stdout') return { name: kind, sink: streamSink(process.stdout) }
    const sink = fileSink(config.log.auditFile, log)
    files.push(sink)
    return { name: kind, sink }
  })
  return {
    entries,
    async close() {
      await Promise.all(files.map((file) => file.close()))
    },
  }
}

/** `strongroom audit verify <file>`: walks the file's chain line by line. */
export async function verifyAuditFile(path: string, anchor?: string): Promise<VerifyReport> {
  const verifier = createLinesVerifier(anchor)
  const lines = createInterface({
    input: createReadStream(path),
    crlfDelay: Number.POSITIVE_INFINITY,
  })
  for await (const line of lines) {
    if (!verifier.add(line)) {
      lines.close()
      break
    }
  }
  return verifier.finish()
}

const SCAN_PAGE = 5_000

/** `strongroom audit verify --database`: walks every node's chain in the audit_events table. */
export async function verifyAuditDatabase(config: Config, anchor?: string): Promise<VerifyReport> {
  if (config.database.kind === 'none') throw new Error('Stateless mode has no database audit sink.')
  const database = openDatabase(config.database)
  try {
    const { audit } = createSqlStore(database)
    const verifier = createRowsVerifier(anchor)
    let at = 0
    for (let afterSeq = 0; ; ) {
      const page = await audit.scan({ afterSeq, limit: SCAN_PAGE })
      for (const { record } of page) if (!verifier.add(++at, record)) return verifier.finish()
      const last = page.at(-1)
      if (last === undefined || page.length < SCAN_PAGE) break
      afterSeq = last.seq
    }
    return verifier.finish()
  } finally {
    await database.db.destroy()
  }
}
