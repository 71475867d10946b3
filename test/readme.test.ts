// test/readme.test.ts: every shell example of README.md runs as written against a server started with `npm start`
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { envWithoutSettings } from './helpers/cli.ts'

const PROJECT = resolve(import.meta.dirname, '..')
const SKIP = /^<!-- readme-test: skip \((.+)\) -->$/

type Block = {
  readonly line: number
  readonly language: string
  /** The file a block is written to (```` ```toml iam.toml ````). */
  readonly file: string | undefined
  readonly text: string
  readonly skip: string | undefined
}

/** The fenced code blocks of a Markdown text, with the skip marker of the line above each. */
function codeBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n')
  const blocks: Block[] = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S+)(?:\s+(\S+))?\s*$/.exec(lines[i] ?? '')
    if (open === null) continue
    const end = lines.findIndex((line, j) => j > i && line.startsWith('```'))
    const before =
      lines
        .slice(0, i)
        .reverse()
        .find((line) => line.trim() !== '') ?? ''
    blocks.push({
      line: i + 1,
      language: open[1] ?? '',
      file: open[2],
      text: lines.slice(i + 1, end).join('\n'),
      skip: SKIP.exec(before.trim())?.[1],
    })
    i = end
  }
  return blocks
}

/** `# {…}` and `# […]` lines: expected outputs, `…` standing for anything. */
function expectedOutputs(text: string): RegExp[] {
  return text
    .split('\n')
    .filter((line) => /^# [[{]/.test(line))
    .map((line) => {
      const pattern = line
        .slice(2)
        .trim()
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*?')
      return new RegExp(pattern)
    })
}

/**
 * A free port below the ephemeral range (32768 and up on Linux), so that servers other test files
 * start on port 0 cannot take it between two `npm start`s of the examples.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 10_000)
    const isFree = await new Promise<boolean>((done) => {
      const server = createServer()
      server.once('error', () => done(false))
      server.listen(port, '127.0.0.1', () => server.close(() => done(true)))
    })
    if (isFree) return port
  }
}

/**
 * `npm start` starts a fresh server (stopping the previous one) with the line's variables, a new
 * data directory and the test's port, and returns once it answers health, as a reader waits for
 * the start-up lines. `npm install` has been done already.
 */
const PRELUDE = `
set -eo pipefail
start_server() {
  stop_server
  local data; data=$(mktemp -d "$WORK/data-XXXX")
  (cd "$PROJECT" && SVC_SERVICE_LISTEN_ADDR=127.0.0.1:$PORT SVC_DATA_DIR="$data" \\
    exec npm start --silent) >> "$WORK/server.log" 2>&1 &
  echo $! > "$WORK/server.pid"
  local pid; pid=$(cat "$WORK/server.pid")
  for _ in $(seq 600); do
    # Our node, not another process on the port: npm start must still be running.
    kill -0 "$pid" 2> /dev/null || { echo "npm start exited; see the server log" >&2; return 1; }
    if curl -s "localhost:$PORT/api/pvlt/1.0/data/info/health" > /dev/null; then return 0; fi
    sleep 0.1
  done
  echo "npm start: the server did not answer within 60 s" >&2
  return 1
}
stop_server() {
  if [ -f "$WORK/server.pid" ]; then
    local pid; pid=$(cat "$WORK/server.pid"); rm -f "$WORK/server.pid"
    kill -TERM "$pid" 2> /dev/null || true
    while kill -0 "$pid" 2> /dev/null; do sleep 0.1; done
  fi
  # npm may exit before the node it runs: wait until nothing answers on the port any more.
  for _ in $(seq 300); do
    curl -s -o /dev/null "localhost:$PORT/api/pvlt/1.0/data/info/health" || return 0
    sleep 0.1
  done
}
npm() {
  case "$1" in
    install) ;;
    start) start_server ;;
    *) command npm "$@" ;;
  esac
}
trap 'stop_server; kill $(jobs -p) 2> /dev/null || true' EXIT
`

type Run = { code: number | null; stdout: string; stderr: string }

function runBash(script: string, env: NodeJS.ProcessEnv, cwd: string): Promise<Run> {
  return new Promise((done) => {
    const child = spawn('bash', ['-c', script], { env, cwd, detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    child.on('exit', (code) => {
      // Anything a block left in the background (the example's third party) goes with it.
      try {
        process.kill(-(child.pid as number), 'SIGTERM')
      } catch {}
      done({ code, stdout, stderr })
    })
  })
}

describe('README.md', async () => {
  const readme = await readFile(join(PROJECT, 'README.md'), 'utf8')
  const blocks = codeBlocks(readme)
  const shell = blocks.filter((b) => b.language === 'sh')
  const work = await mkdtemp(join(tmpdir(), 'strongroom-readme-'))
  afterAll(() => rm(work, { recursive: true, force: true }))

  it('links only files that are in the repository, and names no specification file it lacks', async () => {
    const missing: string[] = []
    for (const file of ['README.md', 'docs/api.md', '.env.example']) {
      const text = await readFile(join(PROJECT, file), 'utf8')
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target as string)) continue
        const path = join(PROJECT, dirname(file), target as string)
        if (!existsSync(path)) missing.push(`${file}: ${target}`)
      }
      for (const [name] of text.matchAll(
        /\b(?:spec\/)?(?:iam|tokens|endpoints|crypto|config|data-model)\.md\b/g,
      ))
        missing.push(`${file}: ${name}`)
    }
    expect(missing).toEqual([])
  })

  it('keeps the blocks it cannot run few, each with its reason', () => {
    const skipped = shell.filter((b) => b.skip !== undefined)
    expect(skipped.map((b) => b.skip)).toEqual([
      'reads the ./data of a node started in the project directory; test/cli/audit-verify.test.ts runs these commands',
      'reads the ./data of a node started in the project directory',
      'runs the test suite, and npm run fix changes files',
    ])
  })

  it('runs every shell example in order, each printing what the README says', async () => {
    const port = await freePort()
    for (const block of blocks.filter((b) => b.file !== undefined))
      await writeFile(join(work, block.file as string), `${block.text}\n`)
    const runnable = shell.filter((b) => b.skip === undefined)
    const script = [
      PRELUDE,
      ...runnable.map((b) =>
        [
          `echo "@@block ${b.line}"`,
          // A reader stops the earlier node before `npm start &`; here npm start does that and
          // goes on once the new node answers, so it runs in the foreground.
          b.text
            .replaceAll('localhost:8123', `localhost:${port}`)
            .replaceAll('npm start &', 'npm start'),
          'echo',
        ].join('\n'),
      ),
      'echo "@@end"',
    ].join('\n')
    const env = envWithoutSettings({ WORK: work, PROJECT, PORT: String(port) })
    const run = await runBash(script, env, work)
    const outputs = new Map<number, string>()
    for (const part of run.stdout.split('@@block ').slice(1)) {
      const at = part.indexOf('\n')
      outputs.set(Number(part.slice(0, at)), part.slice(at + 1))
    }
    const last = [...outputs.keys()].at(-1)
    const log = await readFile(join(work, 'server.log'), 'utf8').catch(() => '')
    const where = `README.md line ${last}:\n${run.stderr.slice(-4000)}\nserver log:\n${log.slice(-2000)}`
    expect(run.code, where).toBe(0)
    expect(run.stdout, where).toContain('@@end')
    for (const block of runnable) {
      const output = outputs.get(block.line) ?? ''
      // A block may show an error on purpose: then its expected output says which one.
      if (!block.text.includes('"error_code"'))
        expect(output, `README.md line ${block.line}: an error answer`).not.toContain(
          '"error_code"',
        )
      for (const pattern of expectedOutputs(block.text))
        expect(output, `README.md line ${block.line}`).toMatch(pattern)
    }
  }, 300_000)
})
