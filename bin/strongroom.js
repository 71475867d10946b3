#!/usr/bin/env node
// bin/strongroom.js: the `strongroom` command (npm start). Plain JavaScript on purpose: Node
// enables its compile cache here, before it meets any TypeScript, so even src/cli/main.ts comes
// stripped from the cache and the type stripper (a WebAssembly module, ~70 ms to load) is never
// loaded on a warm start (ADR 0010). `node src/cli/main.ts` works the same, only slower to start.
//
// It must also run on an older Node (a system Node 20 on `node bin/strongroom.js …`): nothing here
// may need Node 24 before the version check. On an older Node it runs itself again with the
// Node 24 that `npm install` put in node_modules (the `node` package), or says in one line what
// to do.
import module from 'node:module'

const REQUIRED_MAJOR = 24
const major = Number(process.versions.node.split('.')[0])

if (major >= REQUIRED_MAJOR) {
  module.enableCompileCache()
  await import('../src/cli/main.ts')
} else {
  // Loaded only here: a normal start imports nothing it does not need (ADR 0010).
  const { spawn } = await import('node:child_process')
  const { existsSync } = await import('node:fs')
  const { fileURLToPath } = await import('node:url')
  const projectNode = fileURLToPath(new URL('../node_modules/node/bin/node', import.meta.url))
  if (!existsSync(projectNode)) {
    process.stderr.write(
      `strongroom: Node.js ${REQUIRED_MAJOR} or later is needed (this is ${process.version}); run \`npm install\` in the project first (it brings Node ${REQUIRED_MAJOR}), or install Node ${REQUIRED_MAJOR}.\n`,
    )
    process.exit(1)
  }
  const child = spawn(projectNode, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
  })
  // The child is the server: stop requests go to it, and its exit is ours.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal))
  }
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 128 + (signal === 'SIGINT' ? 2 : 15) : 1)
  })
}
