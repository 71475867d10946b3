// scripts/errors-doc.ts: writes docs/errors.md from the error catalogue (npm run docs:errors)
import { writeFileSync } from 'node:fs'
import { renderErrorsDoc } from './errors-doc-render.ts'

const target = new URL('../docs/errors.md', import.meta.url)
writeFileSync(target, renderErrorsDoc())
console.log(`wrote ${target.pathname}`)
