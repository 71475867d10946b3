// src/core/objects/seal-thread.ts: seals and digests new objects inline, or on a worker thread while the main thread writes

import { Worker } from 'node:worker_threads'
import type { StoredCollection } from '../collections/collection.ts'
import type { Envelope } from '../crypto/envelope.ts'
import { ownValue } from '../own.ts'
import type { SealedMap } from '../values/sealing.ts'
import { type DigestMap, type Indexing, isIndexed } from './indexing.ts'
import { digestsOf, splitValues } from './records.ts'
import type { SealJob, SealJobResult } from './seal-job.ts'
import { sealChanges } from './writing.ts'

type Fields = Record<string, unknown>

/** An object to create: its id and normalized values. */
export type NewObject = Readonly<{ id: string; values: Readonly<Fields> }>

/** What a new object's row holds besides its built-ins: plain values, sealed values, digests. */
export type SealedWrite = Readonly<{ plain: Fields; sealed: SealedMap; digests: DigestMap }>

type Waiter = Readonly<{
  resolve: (result: SealJobResult) => void
  reject: (error: Error) => void
}>

type Reply = Readonly<{ id: number; result?: SealJobResult; error?: string }>

/** A worker thread and the jobs it was given that are not answered yet. */
type Running = { readonly thread: Worker; readonly jobs: Map<number, Waiter> }

/** How long the thread waits for another job before it stops. */
const DEFAULT_IDLE_MS = 10_000

/**
 * Sealing (AEAD) and blind digests are about a third of a bulk add's CPU time. On SQLite the
 * statements run on the main thread, so a bulk call is sealing, then writing, in turn: with one
 * worker thread, the main thread writes one step of a batch while the thread seals the next, and
 * the second core does the cryptography. The thread receives the current data key and the
 * collection's blind-index keys with each job (the keys stay inside this process); it computes
 * exactly what `seal` does inline (seal-job.ts). Started on first use, stopped with the services
 * and whenever it has had no job for `idleMs`: its isolate's heap grows under bulk adds (young
 * generation up to 128 MB, which only the main thread's idle release shrinks), so a thread that
 * stayed kept ~140 MB after a few 1,000-object adds (bench/README.md). The next large add starts
 * it again.
 */
export function createSealThread(
  envelope: Envelope,
  indexing: Indexing,
  options: Readonly<{ idleMs?: number }> = {},
) {
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS
  let current: Running | undefined
  let idleTimer: NodeJS.Timeout | undefined
  let nextId = 0

  function stopWorker(): Promise<number> | undefined {
    clearTimeout(idleTimer)
    const running = current
    current = undefined
    return running?.thread.terminate()
  }

  /** Once the last job in flight is answered, the thread has `idleMs` to get another. */
  function armIdleStop(running: Running) {
    clearTimeout(idleTimer)
    if (running.jobs.size > 0) return
    idleTimer = setTimeout(() => {
      if (current === running && running.jobs.size === 0) void stopWorker()
    }, idleMs)
    idleTimer.unref()
  }

  /** A thread's end fails its own jobs only: a thread started after it has its own. */
  function ended(running: Running, error: Error) {
    if (current === running) current = undefined
    for (const waiter of running.jobs.values()) waiter.reject(error)
    running.jobs.clear()
  }

  function started(): Running {
    if (current !== undefined) return current
    const thread = new Worker(new URL('./seal-worker.ts', import.meta.url))
    const running: Running = { thread, jobs: new Map() }
    // Never what keeps the process alive: the server or the caller does that.
    thread.unref()
    thread.on('message', (reply: Reply) => {
      const waiter = running.jobs.get(reply.id)
      if (waiter === undefined) return
      running.jobs.delete(reply.id)
      armIdleStop(running)
      if (reply.result !== undefined) waiter.resolve(reply.result)
      else waiter.reject(new Error(`the sealing thread failed: ${reply.error ?? 'no result'}`))
    })
    thread.on('error', (error) => ended(running, error))
    thread.on('exit', (code) =>
      ended(running, new Error(`the sealing thread exited (code ${code})`)),
    )
    current = running
    return running
  }

  /** Seals and digests on this thread. */
  function seal(collection: StoredCollection, objects: readonly NewObject[]): SealedWrite[] {
    return sealChanges(envelope, collection, objects).map((written, i) => ({
      ...written,
      digests: digestsOf(indexing, collection, objects[i]?.values ?? {}),
    }))
  }

  /** Seals and digests on the worker thread; the same result as `seal`. */
  async function sealAside(
    collection: StoredCollection,
    objects: readonly NewObject[],
  ): Promise<SealedWrite[]> {
    const indexed = collection.properties.filter(isIndexed).map((p) => p.name)
    const keys = envelope.threadKeys(
      'property',
      indexed.map((name) => ({ purpose: 'blind_index', scope: [collection.name, name] })),
    )
    const split = objects.map((o) => splitValues(collection, o.values))
    const job: SealJob = {
      keys,
      collection: collection.name,
      indexed,
      items: objects.map((o, i) => ({
        objectId: o.id,
        secret: split[i]?.secret ?? {},
        indexed: Object.fromEntries(
          indexed.map((name) => [name, ownValue(o.values, name) ?? null]),
        ),
      })),
    }
    const running = started()
    clearTimeout(idleTimer)
    const id = nextId++
    const result = await new Promise<SealJobResult>((resolve, reject) => {
      running.jobs.set(id, { resolve, reject })
      running.thread.postMessage({ id, job })
    })
    return objects.map((_, i) => ({
      plain: split[i]?.plain ?? {},
      sealed: result.sealed[i] ?? {},
      digests: result.digests[i] ?? {},
    }))
  }

  return {
    seal,
    sealAside,
    /** Whether the worker thread is running now (tests). */
    get isStarted(): boolean {
      return current !== undefined
    },
    async stop(): Promise<void> {
      await stopWorker()
    },
  }
}

export type SealThread = ReturnType<typeof createSealThread>
