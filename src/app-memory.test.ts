import { describe, expect, it } from 'vitest'
import { createIdleRelease } from './app-memory.ts'

/** An idle release driven by a scripted sequence of event-loop utilizations. */
function scripted(utilizations: number[], idlePeriods = 1) {
  let collections = 0
  let databaseReleases = 0
  const release = createIdleRelease({
    periodMs: 3_600_000,
    idlePeriods,
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

  it('waits for the idle periods in a row, and releases once per idle stretch', async () => {
    // busy, idle, idle, light (the stretch is broken), idle × 3 (release, then its own sample),
    // idle × 3 (none: the same stretch), busy, idle × 3 (release)
    const { release, counts } = scripted(
      [0.9, 0.01, 0.01, 0.1, 0.01, 0.01, 0.01, 0, 0.01, 0.01, 0.01, 0.5, 0.01, 0.01, 0.01, 0],
      3,
    )
    const collectionsAfter = async (ticks: number) => {
      for (let i = 0; i < ticks; i++) await release.tick()
      return counts().collections
    }
    expect(await collectionsAfter(4)).toBe(0)
    expect(await collectionsAfter(2)).toBe(0)
    expect(await collectionsAfter(1)).toBe(1)
    expect(await collectionsAfter(3)).toBe(1)
    expect(await collectionsAfter(3)).toBe(1)
    expect(await collectionsAfter(1)).toBe(2)
    release.stop()
  })

  it('does nothing on a node that stays idle, stays busy, or has only light traffic', async () => {
    const idle = scripted([0, 0, 0, 0, 0, 0])
    const busy = scripted([0.5, 0.6, 0.7, 0.8, 0.9, 0.9])
    const light = scripted([0.1, 0.01, 0.2, 0.01, 0.01, 0.01])
    for (let i = 0; i < 6; i++) {
      await idle.release.tick()
      await busy.release.tick()
      await light.release.tick()
    }
    for (const node of [idle, busy, light]) {
      expect(node.counts()).toEqual({ collections: 0, databaseReleases: 0 })
      node.release.stop()
    }
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
      idlePeriods: 1,
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
