#!/usr/bin/env node
// bin/strongroom.js: the `strongroom` command (npm start). Plain JavaScript on purpose: Node
// enables its compile cache here, before it meets any TypeScript, so even src/cli/main.ts comes
// stripped from the cache and the type stripper (a WebAssembly module, ~70 ms to load) is never
// loaded on a warm start (ADR 0010). `node src/cli/main.ts` works the same, only slower to start.
import { enableCompileCache } from 'node:module'

enableCompileCache()
await import('../src/cli/main.ts')
