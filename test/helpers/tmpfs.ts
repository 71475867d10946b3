// test/helpers/tmpfs.ts: a small tmpfs for full-disk tests (root only; CI runs as root)
import { execFileSync } from 'node:child_process'
import { closeSync, openSync, writeSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'

/**
 * Mounts a tmpfs of `size` at `dir`. Where mounting is not permitted the test is skipped with the
 * reason printed (undefined), except on CI, where it fails.
 */
export async function mountTmpfs(dir: string, size = '512k'): Promise<string | undefined> {
  await mkdir(dir, { recursive: true })
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' })
    return dir
  } catch (error) {
    const reason = `cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`
    if (process.env.CI) throw new Error(`${reason}; CI runs these tests as root`)
    console.warn(`Skipping a full-disk test: ${reason}`)
    return undefined
  }
}

export function unmount(dir: string): void {
  execFileSync('umount', [dir])
}

/** Writes zeros to `file` until its file system is full. */
export function fillUp(file: string): void {
  const fd = openSync(file, 'w')
  const chunk = Buffer.alloc(4096)
  try {
    for (;;) writeSync(fd, chunk)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
}
