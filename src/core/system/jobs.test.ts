// src/core/system/jobs.test.ts: background jobs run on one node at a time and stop promptly
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore } from '../../../test/helpers/store.ts'
import { createJobs, type Job } from './jobs.ts'

const until = async (condition: () => boolean) => {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5))
}

describe('background jobs', () => {
  let handle: TestStore
  beforeAll(async () => {
    handle = await openTestStore()
  })
  afterAll(() => handle.close())

  const runner = (workerId: string, jobs: Job[]) =>
    createJobs(
      { leases: handle.store.leases, clock: () => Date.now() * 1000, workerId, onError: () => {} },
      jobs,
    )

  it('runs a round on one node at a time and ends it when stopped', async () => {
    const rounds: string[] = []
    let isAborted = false
    const job = (node: string): Job => ({
      name: 'exclusive',
      intervalMs: 5,
      leaseMs: 60_000,
      run: (signal) =>
        new Promise<void>((resolve) => {
          rounds.push(node)
          signal.addEventListener('abort', () => {
            isAborted = true
            resolve()
          })
        }),
    })
    const a = runner('a', [job('a')])
    const b = runner('b', [job('b')])
    a.start()
    b.start()
    await until(() => rounds.length > 0)
    await new Promise((r) => setTimeout(r, 50))
    expect(rounds).toHaveLength(1)
    await a.stop()
    await b.stop()
    expect(isAborted).toBe(true)
  })

  it('never runs a job whose interval is 0, and reports failures instead of throwing', async () => {
    let runs = 0
    const errors: string[] = []
    const jobs = createJobs(
      {
        leases: handle.store.leases,
        clock: () => Date.now() * 1000,
        workerId: 'c',
        onError: (name) => errors.push(name),
      },
      [
        { name: 'off', intervalMs: 0, leaseMs: 1000, run: async () => void runs++ },
        {
          name: 'failing',
          intervalMs: 5,
          leaseMs: 1000,
          run: async () => {
            throw new Error('boom')
          },
        },
      ],
    )
    jobs.start()
    await until(() => errors.length > 0)
    await jobs.stop()
    expect(runs).toBe(0)
    expect(errors[0]).toBe('failing')
  })
})
