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

/**
 * Sealing (AEAD) and blind digests are about a third of a bulk add's CPU time. On SQLite the
 * statements run on the main thread, so a bulk call is sealing, then writing, in turn: with one
 * worker thread, the main thread writes one step of a batch while the thread seals the next, and
 * the second core does the cryptography. The thread receives the current data key and the
 * collection's blind-index keys with each job (the keys stay inside this process); it computes
 * exactly what `seal` does inline (seal-job.ts). Started on first use, stopped with the services.
 */
export function createSealThread(envelope: Envelope, indexing: Indexing) {
  let worker: Worker | undefined
  let nextId = 0
  const waiting = new Map<number, Waiter>()

  function failAll(error: Error) {
    for (const waiter of waiting.values()) waiter.reject(error)
    waiting.clear()
  }

  function started(): Worker {
    if (worker !== undefined) return worker
    const thread = new Worker(new URL('./seal-worker.ts', import.meta.url))
    // Never what keeps the process alive: the server or the caller does that.
    thread.unref()
    thread.on('message', (reply: Reply) => {
      const waiter = waiting.get(reply.id)
      if (waiter === undefined) return
      waiting.delete(reply.id)
      if (reply.result !== undefined) waiter.resolve(reply.result)
      else waiter.reject(new Error(`the sealing thread failed: ${reply.error ?? 'no result'}`))
    })
    thread.on('error', (error) => {
      if (worker === thread) worker = undefined
      failAll(error)
    })
    thread.on('exit', (code) => {
      if (worker === thread) worker = undefined
      failAll(new Error(`the sealing thread exited (code ${code})`))
    })
    worker = thread
    return thread
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
    const thread = started()
    const id = nextId++
    const result = await new Promise<SealJobResult>((resolve, reject) => {
      waiting.set(id, { resolve, reject })
      thread.postMessage({ id, job })
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
    async stop(): Promise<void> {
      const thread = worker
      worker = undefined
      if (thread !== undefined) await thread.terminate()
    },
  }
}

export type SealThread = ReturnType<typeof createSealThread>
