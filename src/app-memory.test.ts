import { describe, expect, it } from 'vitest'
import { createIdleRelease } from './app-memory.ts'

/** An idle release driven by a scripted sequence of event-loop utilizations. */
function scripted(utilizations: number[]) {
  let collections = 0
  let databaseReleases = 0
  const release = createIdleRelease({
    periodMs: 3_600_000,
    utilization: () => utilizations.shift() ?? 0,
    collect: () => {
      collections += 1
    },
    releaseDatabase: async () => {
      databaseReleases += 1
    },
    youngSlackBytes: Number.POSITIVE_INFINITY,
  })
  return {
    release,
    counts: () => ({ collections, databaseReleases }),
  }
}

describe('idle memory release', () => {
  it('releases once on the first idle period after a busy one, then not while idle', async () => {
    // busy, busy, idle (release; its own sample), idle, idle
    const { release, counts } = scripted([0.9, 0.5, 0.01, 0.3, 0.01, 0.01])
    await release.tick()
    await release.tick()
    expect(counts()).toEqual({ collections: 0, databaseReleases: 0 })
    await release.tick()
    expect(counts()).toEqual({ collections: 1, databaseReleases: 1 })
    await release.tick()
    await release.tick()
    expect(counts()).toEqual({ collections: 1, databaseReleases: 1 })
    release.stop()
  })

  it('does nothing on a node that stays idle or stays busy', async () => {
    const idle = scripted([0, 0, 0, 0])
    const busy = scripted([0.5, 0.6, 0.7, 0.8])
    for (let i = 0; i < 4; i++) {
      await idle.release.tick()
      await busy.release.tick()
    }
    expect(idle.counts()).toEqual({ collections: 0, databaseReleases: 0 })
    expect(busy.counts()).toEqual({ collections: 0, databaseReleases: 0 })
    idle.release.stop()
    busy.release.stop()
  })

  it('shrinks the young generation V8 keeps after a burst of allocation', async () => {
    // The real collection: after a burst the young generation stays large until it runs.
    const { getHeapSpaceStatistics } = await import('node:v8')
    const young = () =>
      getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0
    let kept: object[] = []
    for (let round = 0; round < 100; round++) {
      for (let i = 0; i < 20_000; i++) kept.push({ i, text: `value ${i}` })
      if (kept.length > 200_000) kept = []
    }
    kept = []
    const before = young()
    const samples = [0.9, 0.01]
    const release = createIdleRelease({
      periodMs: 3_600_000,
      utilization: () => samples.shift() ?? 0,
    })
    await release.tick()
    await release.tick()
    expect(release.releases).toBe(1)
    expect(young()).toBeLessThan(before)
    expect(young()).toBeLessThanOrEqual(4 * 1024 * 1024)
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined')
    release.stop()
  })
})
