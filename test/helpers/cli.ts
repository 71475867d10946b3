// test/helpers/cli.ts: runs the real `strongroom` command in a child process
import { type ChildProcess, spawn } from 'node:child_process'
import { resolve } from 'node:path'

const MAIN = resolve(import.meta.dirname, '../../bin/strongroom.js')

export type Running = {
  readonly child: ChildProcess
  readonly address: string
  output(): string
  /** Sends a signal and resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

function baseEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('SVC_')),
  )
  return { ...clean, SVC_LOG_LEVEL: 'warn', SVC_LOG_AUDIT_SINK: 'none', ...env }
}

/** What starts the command: this Node on bin/strongroom.js, another Node, or `npm start`. */
export type Launcher = { readonly command: string; readonly args: string[]; readonly cwd?: string }

export const PROJECT_DIR = resolve(import.meta.dirname, '../..')
export const BIN = MAIN

/** This process's environment without SVC_* variables, plus `extra`. */
export function envWithoutSettings(extra: Record<string, string>): NodeJS.ProcessEnv {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('SVC_')),
  )
  return { ...clean, ...extra }
}

/** Runs a command to completion: exit code and everything it printed. */
export function runCli(
  args: string[],
  env: Record<string, string>,
  launcher: Launcher = { command: process.execPath, args: [MAIN] },
): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(launcher.command, [...launcher.args, ...args], { env: baseEnv(env) })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('exit', (code) => done({ code, output }))
  })
}

/** Every complete JSON line the service wrote (lines that are not JSON are skipped). */
export function logLines(output: string): Record<string, unknown>[] {
  return output.split('\n').flatMap((line) => {
    try {
      const parsed: unknown = JSON.parse(line)
      return typeof parsed === 'object' && parsed !== null
        ? [parsed as Record<string, unknown>]
        : []
    } catch {
      return []
    }
  })
}

function bannerAddress(output: string): string | undefined {
  const lines = logLines(output)
  const at = lines.findIndex((line) => typeof line.address === 'string')
  const store = lines[at + 1]
  return at >= 0 && typeof store?.msg === 'string' && store.msg.startsWith('Store: ')
    ? (lines[at]?.address as string)
    : undefined
}

/**
 * Starts `serve` and resolves once it printed the address it listens on; `addressIn` finds it
 * (default: the JSON banner).
 */
export function startCli(
  args: string[],
  env: Record<string, string>,
  addressIn: (output: string) => string | undefined = bannerAddress,
  launcher: Launcher = { command: process.execPath, args: [MAIN] },
): Promise<Running> {
  const child = spawn(launcher.command, [...launcher.args, ...args], {
    env: baseEnv({ SVC_SERVICE_LISTEN_ADDR: '127.0.0.1:0', ...env }),
    cwd: launcher.cwd,
  })
  let output = ''
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)))
  return new Promise((ready, fail) => {
    const onData = (chunk: Buffer) => {
      output += chunk
      // The banner is JSON lines: the address is a field of the "listening" line, and the store
      // line comes right after it.
      const address = addressIn(output)
      if (address !== undefined) {
        ready({
          child,
          address,
          output: () => output,
          stop(signal = 'SIGTERM') {
            child.kill(signal)
            return exited
          },
        })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
    exited.then((code) => fail(new Error(`exited with ${code} before listening:\n${output}`)))
  })
}
