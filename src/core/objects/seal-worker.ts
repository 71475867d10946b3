// src/core/objects/seal-worker.ts: entry of the sealing thread: runs seal jobs posted by seal-thread.ts
import { parentPort } from 'node:worker_threads'
import { runSealJob, type SealJob } from './seal-job.ts'

type Request = Readonly<{ id: number; job: SealJob }>

parentPort?.on('message', (request: Request) => {
  try {
    parentPort?.postMessage({ id: request.id, result: runSealJob(request.job) })
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: String(error) })
  }
})
