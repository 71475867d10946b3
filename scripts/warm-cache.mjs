// scripts/warm-cache.mjs: fills Node's compile cache with the server's modules (npm install runs it)
// A node starts in ~0.5 s with a warm cache and ~0.9 s without (bench/README.md, Start-up); this
// loads the module graph once, without starting anything, so even the first `npm start` after
// `npm install` is warm. Plain JavaScript, for the reason bin/strongroom.js gives.
import { enableCompileCache, flushCompileCache } from 'node:module'

const { status } = enableCompileCache()
// Modules are only loaded: their top level declares and never starts anything.
await import('../src/cli/commands/serve.ts')
await import('../src/cli/commands/migrate.ts')
// What a node loads soon after it listens.
const { loadCompilers } = await import('../src/http/compilers.ts')
await loadCompilers()
flushCompileCache()
console.log(`compile cache warmed (${status === 1 ? 'enabled' : 'already enabled'})`)
