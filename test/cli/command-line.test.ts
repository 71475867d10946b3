// test/cli/command-line.test.ts: --help, --version, bad arguments, an older system Node, and stopping `npm start`
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { BIN, PROJECT_DIR, runCli, startCli } from '../helpers/cli.ts'

const { version } = JSON.parse(readFileSync(`${PROJECT_DIR}/package.json`, 'utf8'))

/** A Node older than 24 on this machine (Debian's /usr/bin/node), to run the bin as a newcomer would. */
const olderNode = ['/usr/bin/node', '/usr/local/bin/node'].find((path) => {
  if (!existsSync(path)) return false
  const major = Number(execFileSync(path, ['-p', 'process.versions.node.split(".")[0]']))
  return major < 24
})

describe('the strongroom command line', () => {
  it.each([['--version'], ['-v'], ['version']])('prints the version for %s', async (flag) => {
    const { code, output } = await runCli([flag], {})
    expect({ code, output: output.trim() }).toEqual({ code: 0, output: `strongroom ${version}` })
  })

  it.each([[[]], [['--help']], [['-h']], [['help']]])('prints the usage for %j', async (args) => {
    const { code, output } = await runCli(args, {})
    expect(code).toBe(0)
    expect(output).toMatch(/^Usage: strongroom <command> \[options\]/)
    expect(output).toContain('serve')
    expect(output).toContain('migrate')
    expect(output).toContain('--version')
  })

  it.each([['serve'], ['migrate']])('has --help for %s', async (command) => {
    for (const flag of ['--help', '-h']) {
      const { code, output } = await runCli([command, flag], {})
      expect(code).toBe(0)
      expect(output).toMatch(new RegExp(`^Usage: strongroom ${command} \\[--dev\\]`))
      expect(output).not.toMatch(/\bat .*\.ts:\d+/)
    }
  })

  it.each([
    [
      ['serve', '--port', '8123'],
      'strongroom: serve: Unknown option --port (see strongroom serve --help)',
    ],
    [
      ['migrate', 'now'],
      'strongroom: migrate: Unexpected argument now (see strongroom migrate --help)',
    ],
    [
      ['--nope'],
      'strongroom: unknown option --nope; the commands are serve, migrate, audit (see strongroom --help)',
    ],
  ])('refuses %j in one line with exit 2', async (args, line) => {
    const { code, output } = await runCli(args, {})
    expect(code).toBe(2)
    expect(output.trim().split('\n')).toEqual([line])
  })
})

describe.skipIf(olderNode === undefined)('bin/strongroom.js on an older system Node', () => {
  it('runs itself with the project Node 24', async () => {
    const { code, output } = await runCli(
      ['--version'],
      {},
      { command: olderNode as string, args: [BIN] },
    )
    expect({ code, output: output.trim() }).toEqual({ code: 0, output: `strongroom ${version}` })
  })

  it('serves, and stops gracefully on SIGTERM sent to the command', async () => {
    const running = await startCli(
      ['serve', '--dev'],
      { SVC_BACKING_STORE: 'memory', SVC_LOG_LEVEL: 'info' },
      undefined,
      {
        command: olderNode as string,
        args: [BIN],
      },
    )
    const res = await fetch(`${running.address}/api/pvlt/1.0/data/info/health`)
    expect(res.status).toBe(200)
    expect(await running.stop('SIGTERM')).toBe(0)
    expect(running.output()).toContain('"msg":"shutting down"')
    await expect(fetch(`${running.address}/api/pvlt/1.0/data/info/health`)).rejects.toThrow()
  })
})

describe('npm start', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('stops the server gracefully on %s', async (signal) => {
    const running = await startCli(
      [],
      { SVC_BACKING_STORE: 'memory', SVC_LOG_LEVEL: 'info' },
      undefined,
      {
        command: 'npm',
        args: ['start', '--silent'],
        cwd: PROJECT_DIR,
      },
    )
    expect((await fetch(`${running.address}/api/pvlt/1.0/data/info/health`)).status).toBe(200)
    await running.stop(signal)
    expect(running.output()).toContain('"msg":"shutting down"')
    await expect(fetch(`${running.address}/api/pvlt/1.0/data/info/health`)).rejects.toThrow()
  })
})
